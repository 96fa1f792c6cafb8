"""Validation helpers."""

import re

from .constants import MAX_VALUE, MIN_VALUE
from .errors import OutOfRangeError

_NUMERAL = re.compile(
    r"^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$",
    re.IGNORECASE,
)


def is_valid(text):
    """True when ``text`` is a well-formed standard Roman numeral."""
    return bool(text) and _NUMERAL.match(text) is not None


def check_range(number):
    """Raise :class:`OutOfRangeError` unless ``number`` can be converted."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"expected an int, got {type(number).__name__}")
    if not MIN_VALUE <= number < MAX_VALUE:
        raise OutOfRangeError(f"{number} is outside {MIN_VALUE}..{MAX_VALUE}")
    return number
