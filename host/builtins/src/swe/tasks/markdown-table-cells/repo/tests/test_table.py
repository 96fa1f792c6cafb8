import pytest

from mdgen import Table


def test_simple_table():
    table = Table(["Item", "Qty"], [["bolt", 4], ["nut", 10]], align=["left", "right"])
    assert table.render() == (
        "| Item | Qty |\n"
        "| :--- | --: |\n"
        "| bolt |   4 |\n"
        "| nut  |  10 |"
    )


def test_alignment():
    table = Table(["a", "b", "c"], [["x", "yy", "zzzz"]], align=["left", "center", "right"])
    assert table.render().splitlines() == [
        "| a   |  b  |    c |",
        "| :-- | :-: | ---: |",
        "| x   | yy  | zzzz |",
    ]


def test_newline_in_cell():
    table = Table(["Name", "Notes"], [["x", "line1\nline2"]])
    assert table.render().splitlines()[-1] == "| x    | line1<br>line2 |"


def test_row_length_checked():
    with pytest.raises(ValueError):
        Table(["a", "b"], [["only one"]])
    with pytest.raises(ValueError):
        Table(["a"], align=["middle"])


def test_minimum_column_width():
    assert Table(["a"]).render() == "| a   |\n| :-- |"
