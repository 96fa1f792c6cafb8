import pytest

from verspec import InvalidVersion, Version


def test_invalid_versions():
    for bad in ["1", "1.2", "01.2.3", "1.2.3-", "1.2.3-01", "a.b.c", "1.2.3+"]:
        with pytest.raises(InvalidVersion):
            Version.parse(bad)


def test_non_string():
    with pytest.raises(InvalidVersion):
        Version.parse(123)


def test_negative_components():
    with pytest.raises(InvalidVersion):
        Version(1, -1, 0)
