"""Documents made of blocks."""

from typing import List

from .blocks import Block, BulletList, CodeBlock, Heading, Paragraph, Quote, Table
from .toc import toc_lines


class Document:
    def __init__(self) -> None:
        self.blocks: List[Block] = []

    def add(self, block: Block) -> "Document":
        self.blocks.append(block)
        return self

    def heading(self, text: str, level: int = 2) -> "Document":
        return self.add(Heading(text, level))

    def paragraph(self, text: str) -> "Document":
        return self.add(Paragraph(text))

    def code(self, code: str, language: str = "") -> "Document":
        return self.add(CodeBlock(code, language))

    def bullets(self, items, ordered: bool = False) -> "Document":
        return self.add(BulletList(items, ordered))

    def quote(self, text: str) -> "Document":
        return self.add(Quote(text))

    def table(self, header, rows=(), align=None) -> "Document":
        return self.add(Table(header, rows, align))

    def render(self, toc: bool = False) -> str:
        parts = [block.render() for block in self.blocks]
        if toc:
            headings = [b for b in self.blocks if isinstance(b, Heading)]
            lines = toc_lines(headings)
            if lines:
                index = 1 if self.blocks and isinstance(self.blocks[0], Heading) else 0
                parts.insert(index, "\n".join(lines))
        return "\n\n".join(parts) + "\n"
