import pytest

from tabula import CsvError, parse_rows


def test_simple_rows():
    assert parse_rows("a,b,c\n1,2,3\n") == [["a", "b", "c"], ["1", "2", "3"]]


def test_empty_fields():
    assert parse_rows(",x,\n") == [["", "x", ""]]


def test_quoted_delimiter():
    assert parse_rows('name,note\nbolt,"M4, zinc"\n') == [["name", "note"], ["bolt", "M4, zinc"]]


def test_quoted_newline():
    assert parse_rows('a,"line one\nline two"\n') == [["a", "line one\nline two"]]


def test_crlf_line_endings():
    assert parse_rows("a,b\r\nc,d\r\n") == [["a", "b"], ["c", "d"]]


def test_no_trailing_newline():
    assert parse_rows("a,b") == [["a", "b"]]


def test_unterminated_quote():
    with pytest.raises(CsvError):
        parse_rows('a,"oops\n')
