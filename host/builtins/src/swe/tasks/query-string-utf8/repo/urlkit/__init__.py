"""URL and query string helpers."""

from .encode import percent_decode, percent_encode
from .query import build_query, parse_query
from .url import URL

__all__ = ["URL", "build_query", "parse_query", "percent_decode", "percent_encode"]
