"""Exceptions."""


class VerspecError(ValueError):
    """Base class of every error raised by verspec."""


class InvalidVersion(VerspecError):
    """A string could not be parsed as a version."""


class InvalidSpecifier(VerspecError):
    """A string could not be parsed as a specifier."""
