import pytest

from tinyla import Matrix


def test_shape():
    assert Matrix([[1, 2, 3], [4, 5, 6]]).shape == (2, 3)
    assert Matrix([]).shape == (0, 0)


def test_ragged_rows_rejected():
    with pytest.raises(ValueError):
        Matrix([[1, 2, 3], [4, 5]])


def test_from_columns():
    assert Matrix.from_columns([[1, 2], [3, 4], [5, 6]]) == Matrix([[1, 3, 5], [2, 4, 6]])


def test_equality():
    assert Matrix.identity(2) == Matrix([[1, 0], [0, 1]])
    assert Matrix([[1]]) != Matrix([[2]])
    assert Matrix([[1]]).__eq__("x") is NotImplemented


def test_rows_are_copies():
    m = Matrix([[1, 2]])
    m.rows[0][0] = 9
    assert m[0, 0] == 1
