import pytest

from spans import Interval


def test_length_and_contains():
    iv = Interval(2, 5)
    assert iv.length == 3
    assert iv.contains(2) and iv.contains(5)
    assert not iv.contains(5.5)


def test_overlaps_touching():
    assert Interval(1, 3).overlaps(Interval(3, 5))
    assert not Interval(1, 3).overlaps(Interval(4, 5))


def test_rejects_reversed_bounds():
    with pytest.raises(ValueError):
        Interval(5, 1)
