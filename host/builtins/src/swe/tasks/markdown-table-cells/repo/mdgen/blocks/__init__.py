"""Block level elements."""

from .base import Block
from .code import CodeBlock
from .heading import Heading
from .lists import BulletList
from .paragraph import Paragraph
from .quote import Quote
from .table import Table

__all__ = ["Block", "BulletList", "CodeBlock", "Heading", "Paragraph", "Quote", "Table"]
