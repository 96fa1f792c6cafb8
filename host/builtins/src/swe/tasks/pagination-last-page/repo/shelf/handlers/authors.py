"""``/authors`` endpoint."""

from ..response import Response
from ..serializers import author_to_dict, page_to_dict
from .common import paginate


def list_authors(request, store):
    page = paginate(request, store.authors())
    return Response(200, page_to_dict(page, request.path, request.query, author_to_dict))
