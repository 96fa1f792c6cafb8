import pytest

from tinyla import Matrix


def test_transpose():
    assert Matrix([[1, 2, 3], [4, 5, 6]]).transpose() == Matrix([[1, 4], [2, 5], [3, 6]])


def test_matmul():
    a = Matrix([[1, 2], [3, 4]])
    assert a @ Matrix.identity(2) == a
    assert a @ Matrix([[0, 1], [1, 0]]) == Matrix([[2, 1], [4, 3]])
    with pytest.raises(ValueError):
        a @ Matrix([[1, 2, 3]])


def test_add_and_scale():
    a = Matrix([[1, 2], [3, 4]])
    assert a + a == 2 * a == a * 2 == Matrix([[2, 4], [6, 8]])
