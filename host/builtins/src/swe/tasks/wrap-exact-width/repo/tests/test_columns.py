from textfmt import columns


def test_two_columns():
    rows = columns(["left side text", "right"], 8, gap=3)
    assert rows == ["left       right", "side", "text"]
