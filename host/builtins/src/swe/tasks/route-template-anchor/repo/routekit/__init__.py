"""URL routing with typed path parameters."""

from .errors import MethodNotAllowed, NoMatch, RoutingError, TemplateError
from .router import Match, Router
from .template import Template

__all__ = [
    "Match",
    "MethodNotAllowed",
    "NoMatch",
    "Router",
    "RoutingError",
    "Template",
    "TemplateError",
]
