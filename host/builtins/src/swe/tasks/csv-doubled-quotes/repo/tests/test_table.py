import pytest

from tabula import SEMICOLON, CsvError, Table

TEXT = "name,qty,price\nbolt,4,0.10\nnut,10,0.05\n"


def test_records():
    table = Table.from_text(TEXT)
    assert len(table) == 2
    assert table.records()[1] == {"name": "nut", "qty": "10", "price": "0.05"}


def test_column_and_select():
    table = Table.from_text(TEXT)
    assert table.column("qty") == ["4", "10"]
    assert table.select("price", "name").to_text() == "price,name\n0.10,bolt\n0.05,nut\n"


def test_semicolon_dialect():
    table = Table.from_text("a;b\n1,5;2\n", SEMICOLON)
    assert table.records() == [{"a": "1,5", "b": "2"}]


def test_ragged_row_rejected():
    with pytest.raises(CsvError):
        Table.from_text("a,b\n1\n")
