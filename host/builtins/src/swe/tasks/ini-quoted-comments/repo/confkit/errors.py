"""Exceptions."""


class ConfigError(Exception):
    """Base class."""


class ParseError(ConfigError):
    def __init__(self, message: str, lineno: int = 0) -> None:
        super().__init__(f"line {lineno}: {message}" if lineno else message)
        self.lineno = lineno


class MissingError(ConfigError, KeyError):
    """A section or key does not exist."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InterpolationError(ConfigError):
    """A ``${...}`` reference cannot be resolved."""


class SchemaError(ConfigError):
    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))
