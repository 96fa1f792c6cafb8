from mdgen import Paragraph


def test_paragraph_escapes_inline():
    assert Paragraph("Stock  on\n*Monday*").render() == "Stock on \\*Monday\\*"
    assert Paragraph("*raw*", raw=True).render() == "*raw*"
