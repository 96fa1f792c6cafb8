"""Flattening nested dicts to dotted keys and back."""

from typing import Any, Dict, Mapping


def flatten(data: Mapping[str, Any], sep: str = ".", prefix: str = "") -> Dict[str, Any]:
    """Flatten nested mappings: ``{"a": {"b": 1}}`` becomes ``{"a.b": 1}``."""
    flat: Dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str):
            raise TypeError(f"keys must be strings, got {key!r}")
        full = f"{prefix}{sep}{key}" if prefix else key
        if isinstance(value, Mapping):
            flat.update(flatten(value, sep, full))
        else:
            flat[full] = value
    return flat


def unflatten(flat: Mapping[str, Any], sep: str = ".") -> Dict[str, Any]:
    """Inverse of :func:`flatten`."""
    nested: Dict[str, Any] = {}
    for key, value in flat.items():
        parts = key.split(sep)
        node = nested
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ValueError(f"key {key!r} conflicts with a value at {part!r}")
            node = child
        if parts[-1] in node and isinstance(node[parts[-1]], dict) and node[parts[-1]]:
            raise ValueError(f"key {key!r} conflicts with a nested section")
        node[parts[-1]] = value
    return nested
