"""Exact linear algebra on small matrices."""

from .det import det
from .inverse import inverse
from .matrix import Matrix

__all__ = ["Matrix", "det", "inverse"]
