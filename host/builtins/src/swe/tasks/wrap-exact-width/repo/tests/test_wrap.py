import pytest

from textfmt import fill, wrap


def test_wrap_basic():
    assert wrap("the quick brown fox jumps", 10) == ["the quick", "brown fox", "jumps"]


def test_wrap_collapses_whitespace():
    assert fill("one\ntwo   three", 20) == "one two three"


def test_long_word_is_split():
    assert wrap("abcdefghij xy", 4) == ["abcd", "efgh", "ij", "xy"]


def test_empty_text():
    assert wrap("", 10) == []
    assert wrap("   ", 10) == []


def test_invalid_width():
    for bad in (0, -1, 2.0):
        with pytest.raises(ValueError):
            wrap("x", bad)
