"""Plain-text formatting helpers."""

from .columns import columns
from .indent import dedent, indent
from .justify import justify
from .wrap import fill, wrap

__all__ = ["columns", "dedent", "fill", "indent", "justify", "wrap"]
