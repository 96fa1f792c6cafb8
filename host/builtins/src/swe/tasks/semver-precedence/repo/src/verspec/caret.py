"""Caret ranges: ``^1.2.3`` allows changes that do not modify the left-most non-zero part."""

from .errors import InvalidSpecifier
from .spec import Specifier, parse_partial


def caret_range(text: str):
    from .specset import SpecifierSet

    text = text.strip()
    if not text.startswith("^"):
        raise InvalidSpecifier(f"not a caret range: {text!r}")
    low = parse_partial(text[1:])
    if low.major > 0:
        high = f"{low.major + 1}.0.0"
    elif low.minor > 0:
        high = f"0.{low.minor + 1}.0"
    else:
        high = f"0.0.{low.patch + 1}"
    return SpecifierSet.of([Specifier(f">={low}"), Specifier(f"<{high}")])
