from urllib.parse import parse_qs, urlencode

from urlkit import URL, build_query, parse_query, percent_encode


def test_non_ascii_encoded_as_utf8():
    assert build_query({"city": "Zürich"}) == "city=Z%C3%BCrich"
    assert build_query({"sym": "€"}) == "sym=%E2%82%AC"
    assert percent_encode("😀") == "%F0%9F%98%80"


def test_plus_decodes_to_space():
    assert parse_query("q=hello+world") == {"q": ["hello world"]}
    assert parse_query("a+b=1%2B1") == {"a b": ["1+1"]}


def test_roundtrip_matches_urllib():
    params = {"q": "crème brûlée & co", "sym": "€ 5+", "emoji": "😀"}
    query = build_query(params)
    assert query == urlencode(params)
    assert parse_query(query) == {k: [v] for k, v in params.items()}
    assert parse_query(query) == parse_qs(query)


def test_url_query_params():
    url = URL.parse("https://example.org/s?q=new+york&page=1")
    assert url.query_params() == {"q": ["new york"], "page": ["1"]}
    assert str(url.with_param("city", "Zürich")) == (
        "https://example.org/s?q=new+york&page=1&city=Z%C3%BCrich"
    )
