"""An in-memory book store."""

from collections import Counter
from typing import Dict, List

from .errors import NotFound
from .models import Author, Book

_AUTHORS = ["Ada", "Grace", "Linus", "Barbara", "Edsger", "Donald", "Frances"]
_TAGS = ["math", "systems", "history", "languages"]


class BookStore:
    def __init__(self) -> None:
        self._books: Dict[int, Book] = {}

    def add(self, book: Book) -> None:
        if book.id in self._books:
            raise ValueError(f"duplicate book id {book.id}")
        self._books[book.id] = book

    def get(self, book_id: int) -> Book:
        try:
            return self._books[book_id]
        except KeyError:
            raise NotFound(f"book {book_id} not found") from None

    def all(self) -> List[Book]:
        return sorted(self._books.values(), key=lambda b: b.id)

    def authors(self) -> List[Author]:
        counts = Counter(b.author for b in self._books.values())
        return [Author(name, counts[name]) for name in sorted(counts)]

    def __len__(self) -> int:
        return len(self._books)


def seed_store(count: int, authors: int = 4) -> BookStore:
    """A store with ``count`` predictable books by the first ``authors`` authors."""
    store = BookStore()
    names = _AUTHORS[:authors]
    for i in range(1, count + 1):
        store.add(
            Book(
                id=i,
                title=f"Book {i:03d}",
                author=names[(i - 1) % len(names)],
                year=1990 + (i * 7) % 30,
                tags=(_TAGS[i % len(_TAGS)],),
            )
        )
    return store
