"""Exceptions raised by :mod:`numerals`."""


class NumeralError(ValueError):
    """Base class for conversion errors."""


class OutOfRangeError(NumeralError):
    """The integer cannot be written as a standard Roman numeral."""


class InvalidNumeralError(NumeralError):
    """The text is not a well-formed Roman numeral."""
