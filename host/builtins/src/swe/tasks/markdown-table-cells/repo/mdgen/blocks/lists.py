"""Bulleted and numbered lists."""

from typing import Iterable

from ..inline import escape_inline
from .base import Block


class BulletList(Block):
    def __init__(self, items: Iterable[str], ordered: bool = False) -> None:
        self.items = [str(i) for i in items]
        self.ordered = ordered

    def render(self) -> str:
        lines = []
        for n, item in enumerate(self.items, start=1):
            marker = f"{n}." if self.ordered else "-"
            lines.append(f"{marker} {escape_inline(item)}")
        return "\n".join(lines)
