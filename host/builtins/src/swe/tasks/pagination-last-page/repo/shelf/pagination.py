"""Splitting a sequence into numbered pages."""

from dataclasses import dataclass
from typing import Generic, List, Sequence, TypeVar

from .errors import NotFound

T = TypeVar("T")


@dataclass
class Page(Generic[T]):
    items: List[T]
    number: int
    per_page: int
    total: int
    pages: int

    @property
    def has_next(self) -> bool:
        return self.number < self.pages

    @property
    def has_prev(self) -> bool:
        return self.number > 1


class Paginator(Generic[T]):
    """Pages of ``per_page`` items; page numbers start at 1."""

    def __init__(self, items: Sequence[T], per_page: int) -> None:
        if per_page < 1:
            raise ValueError("per_page must be positive")
        self.items = items
        self.per_page = per_page

    @property
    def count(self) -> int:
        return len(self.items)

    @property
    def num_pages(self) -> int:
        """Number of pages; an empty sequence still has one (empty) page."""
        return max(1, self.count // self.per_page)

    def page(self, number: int) -> Page[T]:
        if number < 1 or number > self.num_pages:
            raise NotFound(f"page {number} does not exist")
        start = (number - 1) * self.per_page
        items = list(self.items[start : start + self.per_page])
        return Page(items, number, self.per_page, self.count, self.num_pages)
