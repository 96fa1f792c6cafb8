import pytest

from confkit import InterpolationError, parse


def test_same_section_reference(sample):
    config = parse(sample)
    assert config.get("paths", "logs") == "/srv/app/logs"
    assert config.get("paths", "logs", raw=True) == "${root}/logs"
    assert config.get("paths", "price") == "$5"


def test_cross_section_reference(sample):
    assert parse(sample).get("paths", "cache") == "0.0.0.0:8080/cache"


def test_recursion_detected():
    config = parse("[a]\nx = ${y}\ny = ${x}\n")
    with pytest.raises(InterpolationError):
        config.get("a", "x")


def test_bad_reference():
    with pytest.raises(InterpolationError):
        parse("[a]\nx = ${nope}\n").get("a", "x")
