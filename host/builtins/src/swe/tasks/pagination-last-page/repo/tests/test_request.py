from shelf import Request


def test_from_url_parses_query():
    req = Request.from_url("/books?author=Ada&page=2&page=3&empty=", method="get")
    assert req.method == "GET"
    assert req.path == "/books"
    assert req.query == {"author": "Ada", "page": "3", "empty": ""}
    assert req.arg("empty", "x") == "x"
    assert req.arg("missing") is None


def test_root_path():
    assert Request.from_url("?a=1").path == "/"
