"""Headings."""

from ..inline import escape_inline
from .base import Block


class Heading(Block):
    def __init__(self, text: str, level: int = 2) -> None:
        if not 1 <= level <= 6:
            raise ValueError("heading level must be between 1 and 6")
        self.text = text
        self.level = level

    def render(self) -> str:
        return "#" * self.level + " " + escape_inline(self.text)
