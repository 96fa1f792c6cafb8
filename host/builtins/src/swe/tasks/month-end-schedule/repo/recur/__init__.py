"""Calendar arithmetic for recurring payments."""

from .billing import InvoicePlan, prorate
from .dates import add_months, days_in_month, end_of_month, months_between
from .schedule import monthly, weekly
from .weekdays import is_business_day, next_business_day

__all__ = [
    "InvoicePlan",
    "add_months",
    "days_in_month",
    "end_of_month",
    "is_business_day",
    "monthly",
    "months_between",
    "next_business_day",
    "prorate",
    "weekly",
]
