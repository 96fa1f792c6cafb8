import pytest

from scoreboard import Entry, parse_line


def test_entry_validation():
    with pytest.raises(ValueError):
        Entry("", 1, 1)
    with pytest.raises(ValueError):
        Entry("x", -1, 1)


def test_parse_line():
    assert parse_line(" ana , 90, 300") == Entry("ana", 90, 300)
