def test_list_books_first_page(get):
    resp = get("/books")
    assert resp.status == 200
    assert [b["id"] for b in resp.body["items"]] == list(range(1, 11))
    assert resp.body["meta"] == {"page": 1, "per_page": 10, "total": 20, "pages": 2}
    assert resp.body["links"]["next"] == "/books?page=2&per_page=10"


def test_list_books_custom_page_size(get):
    resp = get("/books?page=4&per_page=5")
    assert [b["id"] for b in resp.body["items"]] == [16, 17, 18, 19, 20]
    assert resp.body["links"]["next"] is None


def test_per_page_too_large(get):
    resp = get("/books?per_page=500")
    assert resp.status == 400
    assert resp.body["error"]["message"] == "per_page must be at most 50"


def test_page_past_the_end(get):
    assert get("/books?page=3").status == 404


def test_get_single_book(get):
    resp = get("/books/3")
    assert resp.status == 200
    assert resp.body["title"] == "Book 003"


def test_missing_book(get):
    assert get("/books/999").status == 404
    assert get("/books/abc").status == 400
