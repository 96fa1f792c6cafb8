"""Request handlers."""

from ..routing import Router
from . import authors, books, health


def register(router: Router) -> None:
    router.add("GET", "/health", health.health)
    router.add("GET", "/books", books.list_books)
    router.add("GET", "/books/{book_id}", books.get_book)
    router.add("GET", "/authors", authors.list_authors)
