import pytest

from calcexpr import ParseError, parse
from calcexpr.ast import BinOp, Name, Num, UnaryOp


def test_precedence_of_mul_over_add():
    assert parse("1 + 2 * 3") == BinOp("+", Num(1), BinOp("*", Num(2), Num(3)))
    assert parse("8 - 4 - 2") == BinOp("-", BinOp("-", Num(8), Num(4)), Num(2))


def test_parentheses():
    assert parse("(1 + 2) * x") == BinOp("*", BinOp("+", Num(1), Num(2)), Name("x"))


def test_unary_minus():
    assert parse("-x * 2") == BinOp("*", UnaryOp("-", Name("x")), Num(2))
    assert parse("--1") == UnaryOp("-", UnaryOp("-", Num(1)))


def test_unbalanced_parentheses():
    for bad in ["(1 + 2", "1 + 2)", "1 +", "* 3"]:
        with pytest.raises(ParseError):
            parse(bad)
