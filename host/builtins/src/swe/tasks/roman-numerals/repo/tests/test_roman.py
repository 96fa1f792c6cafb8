import pytest

from numerals import OutOfRangeError, from_roman, to_roman


def test_simple_numerals():
    assert from_roman("III") == 3
    assert from_roman("VIII") == 8
    assert from_roman("MDCLXVI") == 1666


def test_middle_subtractive_pairs():
    assert from_roman("XLII") == 42
    assert from_roman("MCMLXXX") == 1980
    assert from_roman("CDXXI") == 421


def test_to_roman_known_values():
    assert to_roman(1) == "I"
    assert to_roman(4) == "IV"
    assert to_roman(1987) == "MCMLXXXVII"
    assert to_roman(2024) == "MMXXIV"


def test_out_of_range():
    for bad in (0, -5, 4000, 10000):
        with pytest.raises(OutOfRangeError):
            to_roman(bad)


def test_type_checked():
    with pytest.raises(TypeError):
        to_roman(3.0)
