import pytest

from numerals import InvalidNumeralError, from_roman, is_valid


def test_rejects_garbage():
    for bad in ("", "IIII", "VV", "IC", "ABC", "MMMM"):
        assert not is_valid(bad)
        with pytest.raises(InvalidNumeralError):
            from_roman(bad)


def test_lowercase_accepted():
    assert is_valid("mcmlxxx")
    assert from_roman("xlii") == 42
