"""Invoice plans."""

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import List, Tuple

from .dates import days_in_month
from .schedule import monthly
from .weekdays import next_business_day

CENT = Decimal("0.01")


def prorate(amount, start: date) -> Decimal:
    """Part of a monthly ``amount`` due for the days from ``start`` to month end."""
    total = days_in_month(start.year, start.month)
    remaining = total - start.day + 1
    return (Decimal(str(amount)) * remaining / total).quantize(CENT, ROUND_HALF_UP)


@dataclass
class InvoicePlan:
    start: date
    months: int
    amount: float

    def due_dates(self) -> List[date]:
        """Due dates, moved forward to the next business day."""
        return [next_business_day(d) for d in monthly(self.start, self.months)]

    def invoices(self) -> List[Tuple[date, Decimal]]:
        amount = Decimal(str(self.amount)).quantize(CENT)
        return [(d, amount) for d in self.due_dates()]
