"""Helpers shared by list handlers."""

from ..pagination import Paginator
from ..request import Request
from ..settings import DEFAULT_PER_PAGE, MAX_PER_PAGE
from ..validation import parse_positive_int


def paginate(request: Request, items):
    page = parse_positive_int(request.arg("page"), "page", 1)
    per_page = parse_positive_int(
        request.arg("per_page"), "per_page", DEFAULT_PER_PAGE, MAX_PER_PAGE
    )
    return Paginator(items, per_page).page(page)
