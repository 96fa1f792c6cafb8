from shelf import Request, create_app, seed_store
from shelf.links import page_links
from shelf.pagination import Paginator


def test_paginator_counts_partial_page():
    pages = Paginator(list(range(25)), 10)
    assert pages.num_pages == 3
    assert pages.page(3).items == [20, 21, 22, 23, 24]
    assert pages.page(2).has_next
    assert Paginator(list(range(7)), 10).page(1).items == list(range(7))


def test_links_reach_partial_page():
    links = page_links("/books", {"tag": "math"}, 2, 10, 25)
    assert links["next"] == "/books?page=3&per_page=10&tag=math"
    assert links["last"] == "/books?page=3&per_page=10&tag=math"
    assert page_links("/books", {}, 1, 10, 1)["last"] == "/books?page=1&per_page=10"


def test_books_endpoint_serves_remainder():
    app = create_app(seed_store(23))
    resp = app.handle(Request.from_url("/books?page=2"))
    assert resp.body["meta"] == {"page": 2, "per_page": 10, "total": 23, "pages": 3}
    assert resp.body["links"]["next"] == "/books?page=3&per_page=10"
    last = app.handle(Request.from_url("/books?page=3"))
    assert last.status == 200
    assert [b["id"] for b in last.body["items"]] == [21, 22, 23]
    assert last.body["links"]["next"] is None


def test_authors_endpoint_partial_page():
    app = create_app(seed_store(30, authors=7))
    resp = app.handle(Request.from_url("/authors?per_page=3&page=3"))
    assert resp.status == 200
    assert [a["name"] for a in resp.body["items"]] == ["Linus"]
    assert resp.body["meta"]["pages"] == 3
