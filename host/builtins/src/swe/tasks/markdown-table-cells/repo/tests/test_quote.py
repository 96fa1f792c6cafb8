from mdgen import Quote


def test_quote_prefixes_lines():
    assert Quote("one\n\ntwo").render() == "> one\n>\n> two"
