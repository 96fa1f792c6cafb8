"""Bag-of-words utilities."""

from .corpus import Corpus
from .document import Document
from .tokenize import tokenize

__all__ = ["Corpus", "Document", "tokenize"]
