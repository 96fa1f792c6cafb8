"""Generate Markdown documents from Python."""

from .apidoc import api_table
from .blocks import BulletList, CodeBlock, Heading, Paragraph, Quote, Table
from .document import Document

__all__ = [
    "BulletList",
    "CodeBlock",
    "Document",
    "Heading",
    "Paragraph",
    "Quote",
    "Table",
    "api_table",
]
