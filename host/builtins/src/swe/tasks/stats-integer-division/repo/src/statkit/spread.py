"""Measures of spread."""

import math
from typing import Iterable

from .central import mean
from .errors import StatisticsError


def variance(data: Iterable[float], sample: bool = True) -> float:
    values = list(data)
    n = len(values)
    if n < (2 if sample else 1):
        raise StatisticsError("not enough data points")
    m = mean(values)
    return sum((x - m) ** 2 for x in values) / (n - 1 if sample else n)


def stdev(data: Iterable[float], sample: bool = True) -> float:
    return math.sqrt(variance(data, sample))


def data_range(data: Iterable[float]) -> float:
    values = list(data)
    if not values:
        raise StatisticsError("no data points")
    return max(values) - min(values)
