from mdgen.inline import code_span, escape_inline


def test_escape_inline():
    assert escape_inline("a*b_c [d]") == "a\\*b\\_c \\[d\\]"


def test_code_span():
    assert code_span("x") == "`x`"
    assert code_span("a`b") == "``a`b``"
    assert code_span("`x") == "`` `x ``"
