"""The router."""

from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Tuple

from .errors import MethodNotAllowed, NoMatch, RoutingError
from .template import Template


class Match(NamedTuple):
    endpoint: str
    params: Dict[str, Any]


class Router:
    def __init__(self) -> None:
        self._routes: List[Tuple[Template, str, frozenset]] = []
        self._by_endpoint: Dict[str, Template] = {}

    def add(self, template: str, endpoint: str, methods: Optional[Iterable[str]] = None) -> None:
        if endpoint in self._by_endpoint:
            raise RoutingError(f"endpoint {endpoint!r} registered twice")
        compiled = Template(template)
        allowed = frozenset(m.upper() for m in (methods or ["GET"]))
        self._routes.append((compiled, endpoint, allowed))
        self._by_endpoint[endpoint] = compiled

    def match(self, path: str, method: str = "GET") -> Match:
        """The first route (in registration order) whose template matches ``path``."""
        allowed = set()
        for template, endpoint, methods in self._routes:
            params = template.match(path)
            if params is None:
                continue
            if method.upper() in methods:
                return Match(endpoint, params)
            allowed |= methods
        if allowed:
            raise MethodNotAllowed(path, allowed)
        raise NoMatch(path)

    def url_for(self, endpoint: str, **params: Any) -> str:
        try:
            template = self._by_endpoint[endpoint]
        except KeyError:
            raise RoutingError(f"unknown endpoint {endpoint!r}") from None
        return template.build(**params)
