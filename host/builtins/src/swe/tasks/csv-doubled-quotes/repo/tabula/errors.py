"""Errors raised while reading delimited text."""


class CsvError(ValueError):
    """Malformed input."""
