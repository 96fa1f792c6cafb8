"""POSIX path string helpers."""

from .archive import UnsafePathError, plan_extraction
from .join import join, split_ext
from .normalize import is_absolute, normalize
from .relative import relative_to

__all__ = [
    "UnsafePathError",
    "is_absolute",
    "join",
    "normalize",
    "plan_extraction",
    "relative_to",
    "split_ext",
]
