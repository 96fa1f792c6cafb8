"""Tiny in-memory full-text index."""

from .highlight import highlight
from .index import Index
from .normalize import normalize_term, strip_accents
from .slug import slugify
from .tokenize import tokenize

__all__ = ["Index", "highlight", "normalize_term", "slugify", "strip_accents", "tokenize"]
