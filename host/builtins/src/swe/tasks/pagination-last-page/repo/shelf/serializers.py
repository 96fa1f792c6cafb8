"""Turning models and pages into JSON-ready dicts."""

from typing import Any, Callable, Dict, Mapping

from .links import page_links
from .models import Author, Book
from .pagination import Page


def book_to_dict(book: Book) -> Dict[str, Any]:
    return {
        "id": book.id,
        "title": book.title,
        "author": book.author,
        "year": book.year,
        "tags": list(book.tags),
    }


def author_to_dict(author: Author) -> Dict[str, Any]:
    return {"name": author.name, "books": author.books}


def page_to_dict(
    page: Page, path: str, query: Mapping[str, str], item_to_dict: Callable[[Any], Dict]
) -> Dict[str, Any]:
    return {
        "items": [item_to_dict(item) for item in page.items],
        "meta": {
            "page": page.number,
            "per_page": page.per_page,
            "total": page.total,
            "pages": page.pages,
        },
        "links": page_links(path, query, page.number, page.per_page, page.total),
    }
