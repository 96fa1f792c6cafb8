import pytest

from confkit import ParseError, parse


def test_sections_and_keys(sample):
    config = parse(sample)
    assert config.sections() == ["server", "paths", "text"]
    assert config.get("server", "port") == "8080"
    assert config.get("server", "HOST") == "0.0.0.0"


def test_continuation_lines(sample):
    assert parse(sample).get("text", "description") == "first line\nsecond line"


def test_duplicate_key_rejected():
    with pytest.raises(ParseError) as info:
        parse("[a]\nx = 1\nX = 2\n")
    assert info.value.lineno == 3


def test_key_outside_section():
    with pytest.raises(ParseError):
        parse("x = 1\n")


def test_invalid_line():
    with pytest.raises(ParseError):
        parse("[a]\njust words\n")
