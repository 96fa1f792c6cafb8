from confkit import dumps, parse


def test_dumps_plain():
    config = parse("[a]\nx = 1\ny = two words\n\n[b]\nz = ${a:x}\n")
    assert dumps(config) == "[a]\nx = 1\ny = two words\n\n[b]\nz = ${a:x}\n"


def test_dumps_quotes_when_needed():
    config = parse("[a]\nx = \"  padded\"\n")
    assert dumps(config) == '[a]\nx = "  padded"\n'
    assert parse(dumps(config)).get("a", "x") == "  padded"
