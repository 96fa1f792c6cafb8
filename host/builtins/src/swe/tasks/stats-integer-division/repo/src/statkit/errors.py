"""Exceptions."""


class StatisticsError(ValueError):
    """Raised for empty or otherwise unusable data."""
