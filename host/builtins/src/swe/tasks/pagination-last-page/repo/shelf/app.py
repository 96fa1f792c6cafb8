"""The application object."""

from typing import Optional

from .errors import HttpError
from .handlers import register
from .request import Request
from .response import Response
from .routing import Router
from .store import BookStore


class App:
    def __init__(self, store: BookStore) -> None:
        self.store = store
        self.router = Router()
        register(self.router)

    def handle(self, request: Request) -> Response:
        try:
            handler, params = self.router.match(request.method, request.path)
            return handler(request, self.store, **params)
        except HttpError as exc:
            return Response.error(exc.status, exc.message)


def create_app(store: Optional[BookStore] = None) -> App:
    return App(store if store is not None else BookStore())
