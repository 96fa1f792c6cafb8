"""Percentiles by linear interpolation between closest ranks."""

from typing import Iterable, Tuple

from ._util import sorted_data


def percentile(data: Iterable[float], p: float) -> float:
    """The ``p``-th percentile (``0 <= p <= 100``) of ``data``."""
    if not 0 <= p <= 100:
        raise ValueError(f"percentile must be between 0 and 100, got {p}")
    values = sorted_data(data)
    position = (len(values) - 1) * p // 100
    lower = int(position)
    upper = min(lower + 1, len(values) - 1)
    fraction = position - lower
    return values[lower] + (values[upper] - values[lower]) * fraction


def quartiles(data: Iterable[float]) -> Tuple[float, float, float]:
    values = sorted_data(data)
    return (percentile(values, 25), percentile(values, 50), percentile(values, 75))
