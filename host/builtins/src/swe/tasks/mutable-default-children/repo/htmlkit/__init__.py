"""Build and render HTML fragments."""

from . import builders
from .document import Document
from .element import VOID_ELEMENTS, Element
from .render import render

__all__ = ["Document", "Element", "VOID_ELEMENTS", "builders", "render"]
