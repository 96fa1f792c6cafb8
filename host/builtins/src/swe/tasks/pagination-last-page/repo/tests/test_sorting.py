import pytest

from shelf.errors import BadRequest
from shelf.sorting import sort_books


def test_sort_descending(store):
    books = sort_books(store.all(), "-year")
    years = [b.year for b in books]
    assert years == sorted(years, reverse=True)


def test_unknown_field(store):
    with pytest.raises(BadRequest):
        sort_books(store.all(), "price")
