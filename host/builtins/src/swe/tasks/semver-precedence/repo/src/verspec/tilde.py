"""Tilde ranges: ``~1.2.3`` allows patch-level changes."""

from .errors import InvalidSpecifier
from .spec import Specifier, parse_partial


def tilde_range(text: str):
    from .specset import SpecifierSet

    text = text.strip()
    if not text.startswith("~"):
        raise InvalidSpecifier(f"not a tilde range: {text!r}")
    low = parse_partial(text[1:])
    high = f"{low.major}.{low.minor + 1}.0"
    return SpecifierSet.of([Specifier(f">={low}"), Specifier(f"<{high}")])
