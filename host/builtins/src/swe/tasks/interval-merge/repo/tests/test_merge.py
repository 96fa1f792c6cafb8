from spans import Interval, merge, total_length


def test_overlapping_intervals_merge():
    assert merge([Interval(1, 4), Interval(2, 6)]) == [Interval(1, 6)]


def test_disjoint_intervals_stay_apart():
    assert merge([Interval(1, 2), Interval(4, 5)]) == [Interval(1, 2), Interval(4, 5)]


def test_empty_input():
    assert merge([]) == []
    assert total_length([]) == 0


def test_unsorted_input():
    got = merge([Interval(10, 12), Interval(1, 3), Interval(2, 4)])
    assert got == [Interval(1, 4), Interval(10, 12)]


def test_total_length_counts_overlap_once():
    assert total_length([Interval(0, 10), Interval(5, 15)]) == 15
