"""Roman numeral conversion."""

from .errors import InvalidNumeralError, NumeralError, OutOfRangeError
from .roman import from_roman, to_roman
from .validate import is_valid

__all__ = [
    "InvalidNumeralError",
    "NumeralError",
    "OutOfRangeError",
    "from_roman",
    "is_valid",
    "to_roman",
]
