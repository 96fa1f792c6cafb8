import pytest

from statkit import StatisticsError, data_range, stdev, variance


def test_variance_and_stdev():
    data = [2, 4, 4, 4, 5, 5, 7, 9]
    assert variance(data, sample=False) == 4
    assert stdev(data, sample=False) == 2
    assert variance(data) == pytest.approx(32 / 7)


def test_range():
    assert data_range([3, 9, 1]) == 8


def test_not_enough_data():
    with pytest.raises(StatisticsError):
        variance([1])
