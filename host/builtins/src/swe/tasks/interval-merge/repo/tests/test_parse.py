from spans import Interval, format_ranges, parse_ranges


def test_parse_ranges():
    assert parse_ranges("1-3, 7 ,9-12") == [Interval(1, 3), Interval(7, 7), Interval(9, 12)]


def test_parse_skips_empty_chunks():
    assert parse_ranges("1-2,,") == [Interval(1, 2)]


def test_format_roundtrip():
    text = "1-3,7,9.5-12"
    assert format_ranges(parse_ranges(text)) == text
