from textfmt import justify


def test_justify_pads_between_words():
    lines = justify("a bb ccc dddd eeeee", 12)
    assert lines[0] == "a   bb   ccc"
    assert all(len(line) == 12 for line in lines[:-1])


def test_last_line_left_aligned():
    assert justify("a bb ccc dddd eeeee", 12)[-1] == "dddd eeeee"
    assert justify("", 12) == []
