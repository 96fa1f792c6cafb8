"""The :class:`Matrix` type."""

from fractions import Fraction
from typing import Iterable, List, Sequence, Tuple

from . import ops


class Matrix:
    """An immutable rectangular matrix."""

    def __init__(self, rows: Iterable[Sequence[object]]) -> None:
        rows = [list(r) for r in rows]
        if rows and any(len(r) != len(rows[0]) for r in rows):
            raise ValueError("rows have different lengths")
        self._rows = rows

    @classmethod
    def from_columns(cls, columns: Sequence[Sequence[object]]) -> "Matrix":
        return cls(ops.transpose(columns))

    @classmethod
    def identity(cls, n: int) -> "Matrix":
        return cls([[1 if i == j else 0 for j in range(n)] for i in range(n)])

    @property
    def rows(self) -> List[List[object]]:
        return [list(r) for r in self._rows]

    @property
    def shape(self) -> Tuple[int, int]:
        return (len(self._rows), len(self._rows[0]) if self._rows else 0)

    @property
    def is_square(self) -> bool:
        n, m = self.shape
        return n == m

    def __getitem__(self, index: Tuple[int, int]) -> object:
        i, j = index
        return self._rows[i][j]

    def transpose(self) -> "Matrix":
        return Matrix(ops.transpose(self._rows))

    def __matmul__(self, other: "Matrix") -> "Matrix":
        return Matrix(ops.matmul(self._rows, other._rows))

    def __add__(self, other: "Matrix") -> "Matrix":
        return Matrix(ops.add(self._rows, other._rows))

    def __mul__(self, factor) -> "Matrix":
        return Matrix(ops.scale(self._rows, factor))

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Matrix):
            return NotImplemented
        return self._rows == other._rows

    def __repr__(self) -> str:
        return f"Matrix({self._rows!r})"

    def format(self) -> str:
        from .format import format_matrix

        return format_matrix(self)


def as_fraction_rows(m: Matrix) -> List[List[Fraction]]:
    return [[Fraction(x) for x in row] for row in m.rows]
