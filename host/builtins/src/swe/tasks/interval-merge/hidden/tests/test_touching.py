from spans import Interval, gaps, merge, parse_ranges, total_length, union


def test_shared_endpoint_is_merged():
    assert merge([Interval(1, 3), Interval(3, 5)]) == [Interval(1, 5)]
    assert total_length([Interval(1, 3), Interval(3, 5)]) == 4


def test_chain_of_touching_intervals():
    got = merge([Interval(5, 7), Interval(1, 3), Interval(3, 5), Interval(8, 9)])
    assert got == [Interval(1, 7), Interval(8, 9)]


def test_union_of_parsed_ranges():
    assert union(parse_ranges("1-3,3-5"), parse_ranges("5")) == [Interval(1, 5)]


def test_no_zero_width_gaps():
    assert gaps([Interval(0, 2), Interval(2, 4), Interval(6, 8)]) == [Interval(4, 6)]
    assert gaps([Interval(0, 1)]) == []
