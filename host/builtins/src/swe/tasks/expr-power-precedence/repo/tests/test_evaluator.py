import pytest

from calcexpr import EvalError, evaluate


def test_variables():
    assert evaluate("2 * (x + 1) ** 2", x=3) == 32
    assert evaluate("a // b + a % b", a=17, b=5) == 5


def test_functions():
    assert evaluate("max(1, abs(-4), 3) / 2") == 2.0
    assert evaluate("sqrt(16) + floor(2.7)") == 6.0


def test_division_by_zero():
    with pytest.raises(EvalError, match="division by zero"):
        evaluate("1 / (2 - 2)")


def test_unknown_name():
    with pytest.raises(EvalError):
        evaluate("y + 1")
    with pytest.raises(EvalError):
        evaluate("nope(1)")
