import pytest

from tinyla import Matrix, det


def test_det_two_by_two():
    assert det(Matrix([[1, 2], [3, 4]])) == -2


def test_det_three_by_three():
    assert det(Matrix([[2, 1, 0], [1, 1, 0], [0, 3, 1]])) == 1
    assert det(Matrix([[1, 2, 3], [4, 5, 6], [7, 8, 9]])) == 0
    assert det(Matrix.identity(4)) == 1


def test_det_non_square():
    with pytest.raises(ValueError):
        det(Matrix([[1, 2, 3]]))
