import pytest

from statkit import percentile


def test_percentile_bounds():
    assert percentile([5, 1, 3], 0) == 1
    assert percentile([5, 1, 3], 100) == 5


def test_percentile_exact_ranks():
    assert percentile([10, 20, 30, 40, 50], 50) == 30
    assert percentile([10, 20, 30, 40, 50], 25) == 20


def test_percentile_validates():
    with pytest.raises(ValueError):
        percentile([1, 2], 101)
