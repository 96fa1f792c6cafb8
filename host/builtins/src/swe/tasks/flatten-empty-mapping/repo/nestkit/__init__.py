"""Helpers for nested dictionaries."""

from .diff import diff
from .flatten import flatten, unflatten
from .merge import deep_merge
from .pointer import PointerError, resolve

__all__ = ["PointerError", "deep_merge", "diff", "flatten", "resolve", "unflatten"]
