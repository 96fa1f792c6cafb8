"""Side by side columns."""

from itertools import zip_longest
from typing import List, Sequence

from .wrap import wrap


def columns(texts: Sequence[str], width: int, gap: int = 2) -> List[str]:
    """Wrap each text to ``width`` and place the results next to each other."""
    wrapped = [wrap(t, width) for t in texts]
    rows = []
    for parts in zip_longest(*wrapped, fillvalue=""):
        row = (" " * gap).join(p.ljust(width) for p in parts)
        rows.append(row.rstrip())
    return rows
