"""Operations on lists of rows."""

from typing import List, Sequence

Rows = List[List[object]]


def transpose(rows: Sequence[Sequence[object]]) -> Rows:
    """Swap rows and columns of a rectangular list of lists."""
    return [list(column) for column in zip(*rows)]


def matmul(a: Sequence[Sequence[object]], b: Sequence[Sequence[object]]) -> Rows:
    if a and len(a[0]) != len(b):
        raise ValueError(f"cannot multiply {len(a)}x{len(a[0])} by {len(b)}x{len(b[0]) if b else 0}")
    columns = transpose(b)
    return [[sum(x * y for x, y in zip(row, col)) for col in columns] for row in a]


def add(a, b) -> Rows:
    if len(a) != len(b) or any(len(r) != len(s) for r, s in zip(a, b)):
        raise ValueError("shapes differ")
    return [[x + y for x, y in zip(r, s)] for r, s in zip(a, b)]


def scale(a, factor) -> Rows:
    return [[x * factor for x in row] for row in a]
