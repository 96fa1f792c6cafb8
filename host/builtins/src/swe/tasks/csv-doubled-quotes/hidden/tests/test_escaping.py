from tabula import SEMICOLON, Table, format_rows, parse_rows


def test_doubled_quote_is_literal():
    assert parse_rows('"say ""hi"""\n') == [['say "hi"']]
    assert parse_rows('""""\n') == [['"']]


def test_doubled_quote_next_to_delimiter():
    text = '7,"The ""best"", really",x\n'
    assert parse_rows(text) == [["7", 'The "best", really', "x"]]


def test_writer_reader_roundtrip():
    rows = [
        ["id", "title"],
        ["7", 'The "best", really'],
        ["8", '"quoted"'],
        ["9", 'multi\n"line"'],
        ["10", ""],
    ]
    assert parse_rows(format_rows(rows)) == rows
    assert parse_rows(format_rows(rows, SEMICOLON), SEMICOLON) == rows


def test_table_roundtrip_with_quotes():
    table = Table(["name", "note"], [["bolt", 'size "M4"; zinc, bright'], ["nut", "plain"]])
    again = Table.from_text(table.to_text())
    assert again.records() == table.records()
