from confkit import Config, dumps, parse
from confkit.values import clean

SITE = """\
[motd]
text = "Welcome ; enjoy your stay"   ; shown after login
banner = 'Build # 42'
plain = 8080 ; default
"""


def test_semicolon_inside_double_quotes():
    config = parse(SITE)
    assert config.get("motd", "text") == "Welcome ; enjoy your stay"
    assert config.get("motd", "plain") == "8080"


def test_hash_inside_single_quotes():
    config = parse(SITE)
    assert config.get("motd", "banner") == "Build # 42"
    assert clean("'a # b' # real comment") == "a # b"


def test_escaped_quote_then_comment():
    assert clean('"say \\"hi\\" ; now" ; comment') == 'say "hi" ; now'
    assert clean('"x ;"') == "x ;"


def test_dump_parse_roundtrip():
    config = Config()
    values = {
        "semicolon": "a ; b",
        "hash": "issue #12 # and more",
        "quotes": 'say "hi" ; bye',
        "spaces": "  padded ; ",
        "plain": "value",
    }
    for key, value in values.items():
        config.set("main", key, value)
    again = parse(dumps(config))
    assert again.items("main", raw=True) == values
