from mdgen.width import display_width


def test_display_width():
    assert display_width("abc") == 3
    assert display_width("東京") == 4
    assert display_width("e\u0301") == 1
    assert display_width("") == 0
