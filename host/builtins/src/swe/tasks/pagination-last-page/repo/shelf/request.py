"""Incoming requests."""

from dataclasses import dataclass, field
from typing import Dict, Optional
from urllib.parse import parse_qsl, urlsplit


@dataclass
class Request:
    method: str = "GET"
    path: str = "/"
    query: Dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_url(cls, url: str, method: str = "GET") -> "Request":
        """Build a request from a path with an optional query string.

        When a parameter is repeated, the last value wins.
        """
        parts = urlsplit(url)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        return cls(method.upper(), parts.path or "/", query)

    def arg(self, name: str, default: Optional[str] = None) -> Optional[str]:
        value = self.query.get(name)
        return default if value in (None, "") else value
