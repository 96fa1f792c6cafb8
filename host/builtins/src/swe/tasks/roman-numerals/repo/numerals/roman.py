"""Conversion between integers and Roman numerals."""

from .constants import PAIRS, SYMBOLS
from .errors import InvalidNumeralError
from .validate import check_range, is_valid


def to_roman(number):
    """Return the standard Roman numeral for ``number``."""
    remaining = check_range(number)
    out = []
    for value, symbol in PAIRS:
        count, remaining = divmod(remaining, value)
        out.append(symbol * count)
    return "".join(out)


def from_roman(text):
    """Return the integer value of the Roman numeral ``text``.

    Lower case input is accepted.
    """
    if not isinstance(text, str) or not is_valid(text):
        raise InvalidNumeralError(f"not a Roman numeral: {text!r}")
    text = text.upper()
    total = 0
    for i, char in enumerate(text):
        value = SYMBOLS[char]
        if i + 1 < len(text) - 1 and value < SYMBOLS[text[i + 1]]:
            total -= value
        else:
            total += value
    return total
