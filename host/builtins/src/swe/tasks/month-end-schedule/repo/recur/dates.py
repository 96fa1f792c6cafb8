"""Month arithmetic on :class:`datetime.date`."""

from datetime import date

# Days per month, January first.
_MONTH_LENGTHS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def days_in_month(year: int, month: int) -> int:
    """Number of days in ``month`` of ``year``."""
    if not 1 <= month <= 12:
        raise ValueError(f"month must be in 1..12, got {month}")
    return _MONTH_LENGTHS[month - 1]


def add_months(day: date, months: int) -> date:
    """Move ``day`` by ``months`` calendar months (may be negative).

    When the target month is shorter, the result is clamped to its last day:
    31 March plus one month is 30 April.
    """
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(day.day, days_in_month(year, month)))


def end_of_month(day: date) -> date:
    return day.replace(day=days_in_month(day.year, day.month))


def months_between(start: date, end: date) -> int:
    """Whole months from ``start`` to ``end`` (negative if ``end`` is earlier)."""
    months = (end.year - start.year) * 12 + (end.month - start.month)
    if months > 0 and add_months(start, months) > end:
        months -= 1
    elif months < 0 and add_months(start, months) < end:
        months += 1
    return months
