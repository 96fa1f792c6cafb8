"""Determinants by cofactor expansion."""

from typing import List, Sequence

from .matrix import Matrix


def minor(rows: Sequence[Sequence[object]], i: int, j: int) -> List[List[object]]:
    """``rows`` without row ``i`` and column ``j``."""
    return [list(r[:j]) + list(r[j + 1 :]) for k, r in enumerate(rows) if k != i]


def det_rows(rows: Sequence[Sequence[object]]):
    """Determinant of a square list of rows (expansion along the first row)."""
    if len(rows) == 2:
        (a, b), (c, d) = rows
        return a * d - b * c
    total = 0
    for j, value in enumerate(rows[0]):
        if value:
            total += (-1) ** j * value * det_rows(minor(rows, 0, j))
    return total


def det(m: Matrix):
    if not m.is_square:
        raise ValueError(f"determinant of a non-square {m.shape} matrix")
    return det_rows(m.rows)
