"""Closed numeric intervals: parsing, merging and set operations."""

from .interval import Interval
from .merge import merge, total_length
from .ops import gaps, intersect, union
from .parse import format_ranges, parse_ranges

__all__ = [
    "Interval",
    "format_ranges",
    "gaps",
    "intersect",
    "merge",
    "parse_ranges",
    "total_length",
    "union",
]
__version__ = "0.4.1"
