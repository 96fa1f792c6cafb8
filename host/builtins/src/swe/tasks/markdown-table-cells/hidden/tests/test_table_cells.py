import sys
import types

from mdgen import Table, api_table
from mdgen.width import display_width


def test_pipe_in_cell_is_escaped():
    table = Table(["Operator", "Meaning"], [["a | b", "union"], ["x||y", "or"]])
    assert table.render().splitlines() == [
        "| Operator | Meaning |",
        "| :------- | :------ |",
        "| a \\| b   | union   |",
        "| x\\|\\|y   | or      |",
    ]


def test_wide_characters_padded_by_display_width():
    table = Table(["City", "Pop"], [["東京", "14"], ["Paris", "2"]], align=["left", "right"])
    lines = table.render().splitlines()
    assert lines == [
        "| City  | Pop |",
        "| :---- | --: |",
        "| 東京  |  14 |",
        "| Paris |   2 |",
    ]
    assert len({display_width(line) for line in lines}) == 1
    centered = Table(["k"], [["日本語"]], align=["center"]).render().splitlines()
    assert centered[0] == "|   k    |"
    assert centered[2] == "| 日本語 |"


def test_api_table_with_pipe_in_summary(monkeypatch):
    module = types.ModuleType("setops")

    def union(a, b):
        """Return a | b for two sets."""
        return a | b

    module.union = union
    monkeypatch.setitem(sys.modules, "setops", module)
    lines = api_table(module).render().splitlines()
    assert lines[2] == "| `union(a, b)` | Return a \\| b for two sets. |"
    assert all(line.count(" | ") == 1 for line in lines)
