"""Parsing delimited text into rows of strings."""

from typing import List

from .dialect import EXCEL, Dialect
from .errors import CsvError


def parse_rows(text: str, dialect: Dialect = EXCEL) -> List[List[str]]:
    """Split ``text`` into rows of fields.

    Quoted fields may contain the delimiter, line breaks and quote
    characters (written twice). ``\\n``, ``\\r\\n`` and ``\\r`` all end a row.
    A trailing line break does not produce an empty row.
    """
    quote, delim = dialect.quotechar, dialect.delimiter
    rows: List[List[str]] = []
    row: List[str] = []
    field: List[str] = []
    in_quotes = False
    started = False  # whether the current row has any content yet
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if in_quotes:
            if ch == quote:
                in_quotes = False
            else:
                field.append(ch)
        elif ch == quote and not field:
            in_quotes = True
            started = True
        elif ch == delim:
            row.append("".join(field))
            field = []
            started = True
        elif ch in "\r\n":
            if ch == "\r" and text[i + 1 : i + 2] == "\n":
                i += 1
            row.append("".join(field))
            rows.append(row)
            row, field, started = [], [], False
        else:
            field.append(ch)
            started = True
        i += 1
    if in_quotes:
        raise CsvError("unterminated quoted field")
    if started:
        row.append("".join(field))
        rows.append(row)
    return rows
