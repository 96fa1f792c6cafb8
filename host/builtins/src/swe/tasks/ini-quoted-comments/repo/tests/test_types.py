import pytest

from confkit.types import to_bool, to_duration, to_list


def test_to_bool():
    assert [to_bool(v) for v in ("Yes", "on", "1", "FALSE", "off")] == [True, True, True, False, False]
    with pytest.raises(ValueError):
        to_bool("maybe")


def test_to_duration():
    assert [to_duration(v) for v in ("90", "90s", "5m", "2h", "1d")] == [90, 90, 300, 7200, 86400]
    with pytest.raises(ValueError):
        to_duration("5 minutes")


def test_to_list():
    assert to_list("a, b\nc") == ["a", "b", "c"]
