"""Formatting rows as delimited text."""

from typing import Iterable, Sequence

from .dialect import EXCEL, Dialect


def needs_quotes(value: str, dialect: Dialect) -> bool:
    """Whether ``value`` must be wrapped in quote characters."""
    if value != value.strip():
        return True
    specials = (dialect.delimiter, dialect.quotechar, "\n", "\r")
    return any(c in value for c in specials)


def format_field(value, dialect: Dialect = EXCEL) -> str:
    text = "" if value is None else str(value)
    if needs_quotes(text, dialect):
        q = dialect.quotechar
        return q + text.replace(q, q + q) + q
    return text


def format_rows(rows: Iterable[Sequence], dialect: Dialect = EXCEL) -> str:
    """Format ``rows``; every row, including the last, ends with the terminator."""
    out = []
    for row in rows:
        out.append(dialect.delimiter.join(format_field(v, dialect) for v in row))
        out.append(dialect.lineterminator)
    return "".join(out)
