"""Descriptive statistics."""

from .central import mean, median, mode
from .errors import StatisticsError
from .percentiles import percentile, quartiles
from .spread import data_range, stdev, variance
from .summary import summary

__all__ = [
    "StatisticsError",
    "data_range",
    "mean",
    "median",
    "mode",
    "percentile",
    "quartiles",
    "stdev",
    "summary",
    "variance",
]
