"""Exceptions."""


class RoutingError(Exception):
    """Base class."""


class TemplateError(RoutingError):
    """A route template is malformed."""


class NoMatch(RoutingError):
    """No route matches the path."""


class MethodNotAllowed(RoutingError):
    """A route matches the path but not the method."""

    def __init__(self, path, allowed):
        super().__init__(f"{path}: method not allowed (allowed: {', '.join(sorted(allowed))})")
        self.allowed = set(allowed)
