"""Building and parsing query strings."""

from typing import Dict, Iterable, List, Mapping, Tuple, Union

from .encode import percent_decode, percent_encode

Params = Union[Mapping[str, object], Iterable[Tuple[str, object]]]


def _encode(value: object) -> str:
    return percent_encode(str(value)).replace("%20", "+")


def build_query(params: Params) -> str:
    """``{"q": "a b", "tag": ["x", "y"], "flag": None}`` -> ``q=a+b&tag=x&tag=y&flag``.

    Lists and tuples repeat the key; ``None`` writes the key alone.
    """
    items = params.items() if isinstance(params, Mapping) else params
    parts = []
    for key, value in items:
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            parts.append(_encode(key) if v is None else f"{_encode(key)}={_encode(v)}")
    return "&".join(parts)


def _decode(text: str) -> str:
    return percent_decode(text)


def parse_query(query: str) -> Dict[str, List[str]]:
    """Parse a query string (with or without the leading ``?``)."""
    result: Dict[str, List[str]] = {}
    for part in query.lstrip("?").split("&"):
        if not part:
            continue
        key, _, value = part.partition("=")
        result.setdefault(_decode(key), []).append(_decode(value))
    return result
