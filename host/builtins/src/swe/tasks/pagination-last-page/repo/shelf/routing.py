"""Mapping method and path to a handler."""

import re
from typing import Callable, Dict, List, Pattern, Tuple

from .errors import MethodNotAllowed, NotFound

Handler = Callable[..., object]
_PARAM = re.compile(r"\{(\w+)\}")


def compile_pattern(pattern: str) -> Pattern[str]:
    regex = _PARAM.sub(lambda m: f"(?P<{m.group(1)}>[^/]+)", pattern)
    return re.compile(regex)


class Router:
    def __init__(self) -> None:
        self._routes: List[Tuple[str, Pattern[str], Handler]] = []

    def add(self, method: str, pattern: str, handler: Handler) -> None:
        self._routes.append((method.upper(), compile_pattern(pattern), handler))

    def match(self, method: str, path: str) -> Tuple[Handler, Dict[str, str]]:
        allowed = False
        for route_method, regex, handler in self._routes:
            found = regex.fullmatch(path)
            if not found:
                continue
            if route_method == method.upper():
                return handler, found.groupdict()
            allowed = True
        if allowed:
            raise MethodNotAllowed(f"{method} not allowed for {path}")
        raise NotFound(f"no route for {path}")
