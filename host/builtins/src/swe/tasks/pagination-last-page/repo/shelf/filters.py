"""Query parameter filters for book lists."""

from typing import Iterable, List, Mapping

from .models import Book
from .validation import parse_positive_int


def apply_filters(books: Iterable[Book], query: Mapping[str, str]) -> List[Book]:
    result = list(books)
    author = query.get("author")
    if author:
        result = [b for b in result if b.author.lower() == author.lower()]
    tag = query.get("tag")
    if tag:
        result = [b for b in result if tag in b.tags]
    if query.get("year_from"):
        low = parse_positive_int(query["year_from"], "year_from", 1)
        result = [b for b in result if b.year >= low]
    if query.get("year_to"):
        high = parse_positive_int(query["year_to"], "year_to", 9999)
        result = [b for b in result if b.year <= high]
    return result
