from decimal import Decimal

from recur import InvoicePlan, prorate


def test_prorate_first_month(d):
    assert prorate(300, d(2023, 4, 21)) == Decimal("100.00")
    assert prorate(100, d(2023, 3, 1)) == Decimal("100.00")


def test_plan_amounts(d):
    plan = InvoicePlan(d(2023, 5, 15), 2, amount=49.9)
    assert plan.invoices() == [
        (d(2023, 5, 15), Decimal("49.90")),
        (d(2023, 6, 15), Decimal("49.90")),
    ]
