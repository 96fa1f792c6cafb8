from mdgen import api_table
from mdgen.cli import main


def test_api_table(geometry):
    assert api_table(geometry).render().splitlines() == [
        "| Function                   | Summary                   |",
        "| :------------------------- | :------------------------ |",
        "| `area(width, height=1)`    | Area of a rectangle.      |",
        "| `perimeter(width, height)` | Perimeter of a rectangle. |",
    ]


def test_cli_prints_reference(geometry, capsys):
    assert main(["api", "geometry_helpers"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("## geometry\\_helpers\n\n| Function")
    assert "`perimeter(width, height)`" in out


def test_cli_usage(capsys):
    assert main(["nope"]) == 2
