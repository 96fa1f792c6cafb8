"""Sorting book lists by a query parameter."""

from typing import Iterable, List, Optional

from .errors import BadRequest
from .models import Book
from .settings import SORTABLE_FIELDS


def sort_books(books: Iterable[Book], spec: Optional[str]) -> List[Book]:
    """Sort by ``spec`` (``"year"`` or ``"-year"``); ties keep id order."""
    books = sorted(books, key=lambda b: b.id)
    if not spec:
        return books
    descending = spec.startswith("-")
    field_name = spec.lstrip("-")
    if field_name not in SORTABLE_FIELDS:
        raise BadRequest(f"cannot sort by {field_name!r}")
    return sorted(books, key=lambda b: getattr(b, field_name), reverse=descending)
