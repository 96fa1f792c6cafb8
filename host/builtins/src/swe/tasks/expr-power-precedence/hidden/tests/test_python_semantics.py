import pytest

from calcexpr import evaluate, parse, to_infix
from calcexpr.ast import BinOp, Num, UnaryOp


def test_power_groups_right():
    assert evaluate("2 ** 3 ** 2") == 2 ** 3 ** 2 == 512
    assert parse("2 ** 3 ** 2") == BinOp("**", Num(2), BinOp("**", Num(3), Num(2)))
    assert to_infix(parse("(2 ** 3) ** 2")) == "(2 ** 3) ** 2"
    assert to_infix(parse("2 ** (3 ** 2)")) == "2 ** 3 ** 2"


def test_unary_minus_and_power():
    assert evaluate("-2 ** 2") == -(2 ** 2) == -4
    assert parse("-x ** 2") == UnaryOp("-", BinOp("**", parse("x"), Num(2)))
    assert evaluate("2 ** -1") == 0.5
    assert evaluate("-2 ** -2") == -0.25
    assert evaluate("(-2) ** 2") == 4


def test_scientific_notation():
    assert evaluate("1e-3 * 2") == pytest.approx(0.002)
    assert evaluate("2.5e3") == 2500.0
    assert evaluate("1E+2 + x", x=1) == 101.0


def test_leading_dot():
    assert evaluate(".5 + 1") == 1.5
    assert evaluate("0. + .25") == 0.25
