from calcexpr import parse, to_infix


def test_minimal_parentheses():
    assert to_infix(parse("(1 + 2) * 3")) == "(1 + 2) * 3"
    assert to_infix(parse("1 + (2 * 3)")) == "1 + 2 * 3"
    assert to_infix(parse("8 - (4 - 2)")) == "8 - (4 - 2)"
    assert to_infix(parse("max(a, -b)")) == "max(a, -b)"
