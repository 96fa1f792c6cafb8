"""``/books`` endpoints."""

from ..errors import BadRequest
from ..filters import apply_filters
from ..response import Response
from ..serializers import book_to_dict, page_to_dict
from ..sorting import sort_books
from .common import paginate


def list_books(request, store):
    books = apply_filters(store.all(), request.query)
    books = sort_books(books, request.arg("sort"))
    page = paginate(request, books)
    return Response(200, page_to_dict(page, request.path, request.query, book_to_dict))


def get_book(request, store, book_id):
    if not book_id.isdigit():
        raise BadRequest(f"book id must be a number, got {book_id!r}")
    return Response(200, book_to_dict(store.get(int(book_id))))
