from urlkit import build_query, parse_query


def test_build_from_dict():
    assert build_query({"q": "rust wasm", "page": 2}) == "q=rust+wasm&page=2"
    assert build_query({"expr": "a&b=c"}) == "expr=a%26b%3Dc"


def test_build_repeated_and_none():
    assert build_query([("tag", ["x", "y"]), ("flag", None)]) == "tag=x&tag=y&flag"


def test_parse_basic():
    assert parse_query("?a=1&a=2&b=x%26y") == {"a": ["1", "2"], "b": ["x&y"]}


def test_parse_blank_and_flags():
    assert parse_query("a=&flag&&") == {"a": [""], "flag": [""]}
    assert parse_query("") == {}
