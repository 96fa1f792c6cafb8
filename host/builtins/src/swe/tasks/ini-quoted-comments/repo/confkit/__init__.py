"""INI configuration with types, interpolation and schemas."""

from .config import Config
from .env import apply_env
from .errors import ConfigError, InterpolationError, MissingError, ParseError, SchemaError
from .loader import load, load_many
from .merge import merge
from .parser import parse
from .schema import Field, Schema
from .writer import dumps

__all__ = [
    "Config",
    "ConfigError",
    "Field",
    "InterpolationError",
    "MissingError",
    "ParseError",
    "Schema",
    "SchemaError",
    "apply_env",
    "dumps",
    "load",
    "load_many",
    "merge",
    "parse",
]
