"""Shared helpers."""

from typing import Iterable, List

from .errors import StatisticsError


def sorted_data(data: Iterable[float]) -> List[float]:
    values = sorted(data)
    if not values:
        raise StatisticsError("no data points")
    return values
