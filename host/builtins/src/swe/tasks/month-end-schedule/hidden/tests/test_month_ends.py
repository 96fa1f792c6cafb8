from datetime import date
from decimal import Decimal

from recur import InvoicePlan, add_months, end_of_month, monthly, months_between, prorate


def test_leap_year_february():
    assert add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)
    assert add_months(date(2024, 2, 29), 12) == date(2025, 2, 28)
    assert add_months(date(2023, 2, 28), 12) == date(2024, 2, 28)
    assert end_of_month(date(2024, 2, 10)) == date(2024, 2, 29)
    assert end_of_month(date(2000, 2, 1)) == date(2000, 2, 29)
    assert end_of_month(date(1900, 2, 1)) == date(1900, 2, 28)
    assert months_between(date(2024, 1, 31), date(2024, 2, 29)) == 1


def test_monthly_schedule_keeps_anchor_day():
    assert monthly(date(2023, 1, 31), 4) == [
        date(2023, 1, 31),
        date(2023, 2, 28),
        date(2023, 3, 31),
        date(2023, 4, 30),
    ]
    assert monthly(date(2023, 8, 30), 3, every=3) == [
        date(2023, 8, 30),
        date(2023, 11, 30),
        date(2024, 2, 29),
    ]


def test_invoice_plan_due_dates():
    plan = InvoicePlan(date(2023, 1, 31), 3, amount=10)
    # 2023-03-31 is a Friday
    assert plan.due_dates() == [date(2023, 1, 31), date(2023, 2, 28), date(2023, 3, 31)]


def test_prorate_leap_february():
    assert prorate(290, date(2024, 2, 20)) == Decimal("100.00")
