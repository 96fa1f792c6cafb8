from fractions import Fraction

import pytest

from tinyla import Matrix, det, inverse
from tinyla.inverse import SingularMatrixError
from tinyla.ops import transpose


def test_det_one_by_one():
    assert det(Matrix([[5]])) == 5
    assert det(Matrix([[Fraction(-1, 3)]])) == Fraction(-1, 3)


def test_det_empty():
    assert det(Matrix([])) == 1


def test_inverse_two_by_two():
    m = Matrix([[1, 2], [3, 4]])
    assert inverse(m) == Matrix([[-2, 1], [Fraction(3, 2), Fraction(-1, 2)]])
    assert inverse(m) @ m == Matrix.identity(2)
    assert inverse(Matrix([[4]])) == Matrix([[Fraction(1, 4)]])
    with pytest.raises(SingularMatrixError):
        inverse(Matrix([[0]]))


def test_ragged_columns_rejected():
    with pytest.raises(ValueError):
        Matrix.from_columns([[1, 2, 3], [4, 5]])
    with pytest.raises(ValueError):
        transpose([[1], [2, 3]])
    assert transpose([[1, 2], [3, 4]]) == [[1, 3], [2, 4]]
