"""Paragraphs."""

from ..inline import escape_inline
from .base import Block


class Paragraph(Block):
    def __init__(self, text: str, raw: bool = False) -> None:
        self.text = text
        self.raw = raw

    def render(self) -> str:
        text = " ".join(self.text.split())
        return text if self.raw else escape_inline(text)
