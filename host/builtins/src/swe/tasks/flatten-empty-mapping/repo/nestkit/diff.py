"""Comparing nested dicts."""

from typing import Any, Dict, Mapping

from .flatten import flatten


def diff(old: Mapping[str, Any], new: Mapping[str, Any], sep: str = ".") -> Dict[str, Any]:
    """Flattened differences: ``added``, ``removed`` (key -> value) and
    ``changed`` (key -> (old, new))."""
    a, b = flatten(old, sep), flatten(new, sep)
    return {
        "added": {k: b[k] for k in sorted(b.keys() - a.keys())},
        "removed": {k: a[k] for k in sorted(a.keys() - b.keys())},
        "changed": {k: (a[k], b[k]) for k in sorted(a.keys() & b.keys()) if a[k] != b[k]},
    }
