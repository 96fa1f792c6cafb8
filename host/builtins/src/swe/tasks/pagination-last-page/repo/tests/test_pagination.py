import pytest

from shelf.errors import NotFound
from shelf.pagination import Paginator


def test_exact_multiple():
    pages = Paginator(list(range(30)), 10)
    assert pages.num_pages == 3
    page = pages.page(2)
    assert page.items == list(range(10, 20))
    assert page.has_next and page.has_prev


def test_page_out_of_range():
    pages = Paginator(list(range(30)), 10)
    for bad in (0, 4):
        with pytest.raises(NotFound):
            pages.page(bad)


def test_empty_collection_has_one_page():
    pages = Paginator([], 10)
    assert pages.num_pages == 1
    page = pages.page(1)
    assert page.items == [] and not page.has_next


def test_per_page_must_be_positive():
    with pytest.raises(ValueError):
        Paginator([1], 0)
