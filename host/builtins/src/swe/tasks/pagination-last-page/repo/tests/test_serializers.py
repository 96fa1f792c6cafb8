from shelf.models import Book
from shelf.serializers import book_to_dict


def test_book_to_dict():
    book = Book(1, "Dune", "Frank", 1965, ("sf",))
    assert book_to_dict(book) == {
        "id": 1, "title": "Dune", "author": "Frank", "year": 1965, "tags": ["sf"],
    }
