import pytest

from recur import monthly, weekly


def test_weekly(d):
    assert weekly(d(2023, 1, 2), 3, every=2) == [d(2023, 1, 2), d(2023, 1, 16), d(2023, 1, 30)]


def test_monthly_mid_month(d):
    assert monthly(d(2023, 11, 15), 3) == [d(2023, 11, 15), d(2023, 12, 15), d(2024, 1, 15)]
    assert monthly(d(2023, 1, 10), 3, every=3) == [d(2023, 1, 10), d(2023, 4, 10), d(2023, 7, 10)]


def test_count_must_be_positive(d):
    with pytest.raises(ValueError):
        monthly(d(2023, 1, 1), 0)
    with pytest.raises(ValueError):
        weekly(d(2023, 1, 1), -1)
