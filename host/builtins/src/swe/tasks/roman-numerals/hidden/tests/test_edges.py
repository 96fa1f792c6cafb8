from numerals import from_roman, to_roman


def test_trailing_subtractive_pair():
    assert from_roman("XIV") == 14
    assert from_roman("IX") == 9
    assert from_roman("MCMXCIV") == 1994
    assert from_roman("xc") == 90


def test_upper_bound_is_inclusive():
    assert to_roman(3999) == "MMMCMXCIX"
    assert from_roman("MMMCMXCIX") == 3999


def test_roundtrip_whole_range():
    for n in range(1, 4000):
        assert from_roman(to_roman(n)) == n
