"""A small immutable URL type."""

from dataclasses import dataclass, replace
from typing import Dict, List
from urllib.parse import urlsplit, urlunsplit

from .query import build_query, parse_query


@dataclass(frozen=True)
class URL:
    scheme: str = ""
    netloc: str = ""
    path: str = ""
    query: str = ""
    fragment: str = ""

    @classmethod
    def parse(cls, text: str) -> "URL":
        parts = urlsplit(text)
        return cls(parts.scheme, parts.netloc, parts.path, parts.query, parts.fragment)

    def __str__(self) -> str:
        return urlunsplit((self.scheme, self.netloc, self.path, self.query, self.fragment))

    def query_params(self) -> Dict[str, List[str]]:
        return parse_query(self.query)

    def with_param(self, key: str, value: object) -> "URL":
        """A copy with ``key`` set to ``value`` (replacing earlier values)."""
        params = [(k, v) for k, vs in self.query_params().items() if k != key for v in vs]
        params.append((key, value))
        return replace(self, query=build_query(params))
