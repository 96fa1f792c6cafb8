"""Liveness probe."""

from ..response import Response


def health(request, store):
    return Response(200, {"status": "ok", "books": len(store)})
