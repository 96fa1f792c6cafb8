import pytest

from shelf.errors import MethodNotAllowed, NotFound
from shelf.routing import Router


def test_path_parameters():
    router = Router()
    router.add("GET", "/books/{book_id}", "handler")
    assert router.match("get", "/books/12") == ("handler", {"book_id": "12"})


def test_no_partial_match():
    router = Router()
    router.add("GET", "/books/{book_id}", "handler")
    with pytest.raises(NotFound):
        router.match("GET", "/books/12/extra")


def test_method_not_allowed():
    router = Router()
    router.add("GET", "/books", "handler")
    with pytest.raises(MethodNotAllowed):
        router.match("POST", "/books")
