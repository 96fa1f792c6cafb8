"""Aligned tables."""

from typing import Iterable, List, Optional, Sequence

from ..inline import escape_cell
from .base import Block

_ALIGNMENTS = ("left", "right", "center")
MIN_WIDTH = 3


def _pad(text: str, width: int, align: str) -> str:
    extra = width - len(text)
    if align == "right":
        return " " * extra + text
    if align == "center":
        left = extra // 2
        return " " * left + text + " " * (extra - left)
    return text + " " * extra


def _separator(width: int, align: str) -> str:
    if align == "right":
        return "-" * (width - 1) + ":"
    if align == "center":
        return ":" + "-" * (width - 2) + ":"
    return ":" + "-" * (width - 1)


class Table(Block):
    def __init__(
        self,
        header: Sequence[object],
        rows: Iterable[Sequence[object]] = (),
        align: Optional[Sequence[str]] = None,
    ) -> None:
        self.header = [str(h) for h in header]
        self.align = list(align) if align else ["left"] * len(self.header)
        if len(self.align) != len(self.header) or any(a not in _ALIGNMENTS for a in self.align):
            raise ValueError(f"align must name one of {_ALIGNMENTS} per column")
        self.rows: List[List[str]] = []
        for row in rows:
            self.add_row(row)

    def add_row(self, row: Sequence[object]) -> None:
        if len(row) != len(self.header):
            raise ValueError(f"expected {len(self.header)} cells, got {len(row)}")
        self.rows.append([str(c) for c in row])

    def render(self) -> str:
        cells = [[escape_cell(c) for c in row] for row in [self.header] + self.rows]
        widths = [
            max(MIN_WIDTH, max(len(row[i]) for row in cells)) for i in range(len(self.header))
        ]

        def line(row: List[str]) -> str:
            return "| " + " | ".join(_pad(c, w, a) for c, w, a in zip(row, widths, self.align)) + " |"

        sep = "| " + " | ".join(_separator(w, a) for w, a in zip(widths, self.align)) + " |"
        return "\n".join([line(cells[0]), sep] + [line(r) for r in cells[1:]])
