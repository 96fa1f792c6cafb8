"""Merging overlapping intervals."""

from __future__ import annotations

from typing import Iterable, List

from .interval import Interval


def merge(intervals: Iterable[Interval]) -> List[Interval]:
    """Return the sorted list of disjoint intervals covering ``intervals``.

    Intervals that share at least one point are combined.
    """
    ordered = sorted(intervals)
    merged: List[Interval] = []
    for current in ordered:
        if merged and current.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = Interval(last.start, max(last.end, current.end))
        else:
            merged.append(current)
    return merged


def total_length(intervals: Iterable[Interval]) -> float:
    """Total length covered by ``intervals``, counting overlaps once."""
    return sum(iv.length for iv in merge(intervals))
