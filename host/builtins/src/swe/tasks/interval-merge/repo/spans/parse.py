"""Parsing and formatting range strings like ``"1-3,7,9-12"``."""

from __future__ import annotations

from typing import Iterable, List

from .interval import Interval


def _number(text: str) -> float:
    value = float(text)
    return int(value) if value.is_integer() else value


def parse_ranges(text: str) -> List[Interval]:
    """Parse a comma separated list of ``a-b`` ranges or single numbers."""
    result: List[Interval] = []
    for chunk in text.split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        start, sep, end = chunk.partition("-")
        if not sep:
            end = start
        result.append(Interval(_number(start), _number(end)))
    return result


def format_ranges(intervals: Iterable[Interval]) -> str:
    """Inverse of :func:`parse_ranges`."""
    parts = []
    for iv in intervals:
        if iv.start == iv.end:
            parts.append(f"{iv.start}")
        else:
            parts.append(f"{iv.start}-{iv.end}")
    return ",".join(parts)
