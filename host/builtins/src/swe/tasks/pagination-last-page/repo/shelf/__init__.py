"""In-memory catalogue service."""

from .app import App, create_app
from .request import Request
from .response import Response
from .store import BookStore, seed_store

__all__ = ["App", "BookStore", "Request", "Response", "create_app", "seed_store"]
