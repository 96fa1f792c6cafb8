from tinyla import Matrix


def test_format_aligns_columns():
    assert Matrix([[1, 200], [30, 4]]).format() == "[  1  200 ]\n[ 30    4 ]"
    assert Matrix([]).format() == "[]"
