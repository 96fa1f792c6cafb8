import pytest

from shelf import seed_store
from shelf.models import Book


def test_seed_is_deterministic():
    a, b = seed_store(12), seed_store(12)
    assert a.all() == b.all()
    assert a.get(5).author == "Ada"


def test_duplicate_id_rejected():
    store = seed_store(1)
    with pytest.raises(ValueError):
        store.add(Book(1, "x", "y", 2000))
