import pytest

from recur import add_months, days_in_month, end_of_month, months_between


def test_add_months_simple(d):
    assert add_months(d(2023, 1, 15), 1) == d(2023, 2, 15)
    assert add_months(d(2023, 5, 15), -2) == d(2023, 3, 15)


def test_add_months_clamps_to_short_month(d):
    assert add_months(d(2023, 3, 31), 1) == d(2023, 4, 30)
    assert add_months(d(2023, 1, 31), 1) == d(2023, 2, 28)


def test_add_months_year_wrap(d):
    assert add_months(d(2023, 12, 10), 1) == d(2024, 1, 10)
    assert add_months(d(2023, 1, 10), -1) == d(2022, 12, 10)
    assert add_months(d(2023, 6, 1), 30) == d(2025, 12, 1)


def test_end_of_month(d):
    assert end_of_month(d(2023, 4, 3)) == d(2023, 4, 30)
    assert end_of_month(d(2023, 2, 3)) == d(2023, 2, 28)


def test_days_in_month_validates():
    with pytest.raises(ValueError):
        days_in_month(2023, 13)


def test_months_between(d):
    assert months_between(d(2023, 1, 15), d(2023, 3, 14)) == 1
    assert months_between(d(2023, 1, 15), d(2023, 3, 15)) == 2
    assert months_between(d(2023, 3, 15), d(2023, 1, 15)) == -2
