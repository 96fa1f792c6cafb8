import pytest

from calcexpr import ParseError, tokenize


def values(text):
    return [(t.kind, t.value) for t in tokenize(text)][:-1]


def test_tokenize_simple():
    assert values("a+2 ** b") == [("name", "a"), ("op", "+"), ("number", "2"), ("op", "**"), ("name", "b")]
    assert tokenize("  ")[-1].kind == "end"


def test_decimal_numbers():
    assert values("3.25 // 2") == [("number", "3.25"), ("op", "//"), ("number", "2")]


def test_bad_character():
    with pytest.raises(ParseError, match="unexpected character '\\$' at position 2"):
        tokenize("1 $ 2")
