"""Weekly and monthly schedules."""

from datetime import date, timedelta
from typing import List

from .dates import add_months


def _check_count(count: int) -> None:
    if count < 1:
        raise ValueError("count must be at least 1")


def weekly(start: date, count: int, every: int = 1) -> List[date]:
    _check_count(count)
    return [start + timedelta(weeks=every * i) for i in range(count)]


def monthly(start: date, count: int, every: int = 1) -> List[date]:
    """``count`` dates, ``every`` months apart, on the day of month of ``start``.

    In months that are too short the last day of the month is used instead.
    """
    _check_count(count)
    result = [start]
    while len(result) < count:
        result.append(add_months(result[-1], every))
    return result
