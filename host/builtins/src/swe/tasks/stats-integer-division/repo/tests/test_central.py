import pytest

from statkit import StatisticsError, mean, median, mode


def test_mean():
    assert mean([1, 2, 3, 4]) == 2.5


def test_median_odd():
    assert median([3, 1, 2]) == 2
    assert median([7]) == 7


def test_median_floats():
    assert median([1.0, 2.0, 3.0, 4.0]) == 2.5
    assert median([4, 2]) == 3


def test_mode():
    assert mode([1, 2, 2, 3, 3]) == [2, 3]


def test_empty_data():
    for func in (mean, median, mode):
        with pytest.raises(StatisticsError):
            func([])
