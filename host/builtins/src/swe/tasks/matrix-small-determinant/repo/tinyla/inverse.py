"""Inverse by the adjugate formula."""

from fractions import Fraction

from .det import det_rows, minor
from .matrix import Matrix, as_fraction_rows


class SingularMatrixError(ValueError):
    """The matrix has no inverse."""


def inverse(m: Matrix) -> Matrix:
    if not m.is_square:
        raise ValueError("only square matrices can be inverted")
    rows = as_fraction_rows(m)
    d = det_rows(rows)
    if d == 0:
        raise SingularMatrixError("matrix is singular")
    n = len(rows)
    cofactors = [[(-1) ** (i + j) * det_rows(minor(rows, i, j)) for j in range(n)] for i in range(n)]
    # inverse = adjugate / det, adjugate = transposed cofactor matrix
    return Matrix([[Fraction(cofactors[j][i]) / d for j in range(n)] for i in range(n)])
