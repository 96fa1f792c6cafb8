from shelf.links import page_links


def test_first_page_links():
    links = page_links("/books", {"author": "Ada", "page": "1"}, 1, 10, 30)
    assert links["self"] == "/books?author=Ada&page=1&per_page=10"
    assert links["next"] == "/books?author=Ada&page=2&per_page=10"
    assert links["last"] == "/books?author=Ada&page=3&per_page=10"
    assert links["prev"] is None


def test_middle_page_links():
    links = page_links("/authors", {}, 2, 5, 15)
    assert links["prev"] == "/authors?page=1&per_page=5"
    assert links["next"] == "/authors?page=3&per_page=5"
    assert links["first"] == "/authors?page=1&per_page=5"
