from fractions import Fraction

import pytest

from tinyla import Matrix, inverse
from tinyla.inverse import SingularMatrixError


def test_inverse_three_by_three():
    m = Matrix([[2, 1, 0], [1, 1, 0], [0, 3, 1]])
    inv = inverse(m)
    assert inv @ m == Matrix.identity(3)
    assert inv[0, 0] == Fraction(1)


def test_singular():
    with pytest.raises(SingularMatrixError):
        inverse(Matrix([[1, 2, 3], [2, 4, 6], [0, 0, 1]]))
