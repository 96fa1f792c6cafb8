"""Business days (Monday to Friday)."""

from datetime import date, timedelta


def is_business_day(day: date) -> bool:
    return day.weekday() < 5


def next_business_day(day: date) -> date:
    """``day`` itself when it is a business day, else the following Monday."""
    while not is_business_day(day):
        day += timedelta(days=1)
    return day
