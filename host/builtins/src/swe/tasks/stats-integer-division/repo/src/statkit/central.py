"""Measures of central tendency."""

from collections import Counter
from typing import Iterable, List

from ._util import sorted_data
from .errors import StatisticsError


def mean(data: Iterable[float]) -> float:
    values = list(data)
    if not values:
        raise StatisticsError("no data points")
    return sum(values) / len(values)


def median(data: Iterable[float]) -> float:
    """Middle value; the mean of the two middle values for even lengths."""
    values = sorted_data(data)
    n = len(values)
    mid = n // 2
    if n % 2:
        return values[mid]
    return (values[mid - 1] + values[mid]) // 2 if isinstance(values[0], int) else (
        values[mid - 1] + values[mid]
    ) / 2


def mode(data: Iterable[float]) -> List[float]:
    """All most common values, in order of first appearance."""
    counts = Counter(data)
    if not counts:
        raise StatisticsError("no data points")
    top = max(counts.values())
    return [value for value, count in counts.items() if count == top]
