"""Set-like operations built on :func:`spans.merge.merge`."""

from __future__ import annotations

from typing import Iterable, List, Optional

from .interval import Interval
from .merge import merge


def union(*groups: Iterable[Interval]) -> List[Interval]:
    """Union of several groups of intervals."""
    everything: List[Interval] = []
    for group in groups:
        everything.extend(group)
    return merge(everything)


def intersect(a: Interval, b: Interval) -> Optional[Interval]:
    """The common part of ``a`` and ``b``, or ``None``."""
    if not a.overlaps(b):
        return None
    return Interval(max(a.start, b.start), min(a.end, b.end))


def gaps(intervals: Iterable[Interval]) -> List[Interval]:
    """The open stretches between the merged intervals.

    Each gap is reported as the interval between the end of one merged
    interval and the start of the next.
    """
    merged = merge(intervals)
    return [Interval(left.end, right.start) for left, right in zip(merged, merged[1:])]
