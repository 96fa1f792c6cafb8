from urlkit import URL


def test_parse_and_str():
    url = URL.parse("https://example.org/search?q=x#top")
    assert (url.scheme, url.netloc, url.path, url.query, url.fragment) == (
        "https", "example.org", "/search", "q=x", "top",
    )
    assert str(url) == "https://example.org/search?q=x#top"


def test_with_param():
    url = URL.parse("https://example.org/search?q=x&page=1")
    assert str(url.with_param("page", 3)) == "https://example.org/search?q=x&page=3"
    assert url.query == "q=x&page=1"
