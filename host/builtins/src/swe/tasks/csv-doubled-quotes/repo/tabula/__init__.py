"""Delimited text reading and writing."""

from .dialect import EXCEL, SEMICOLON, TAB, Dialect
from .errors import CsvError
from .reader import parse_rows
from .table import Table
from .writer import format_field, format_rows

__all__ = [
    "CsvError",
    "Dialect",
    "EXCEL",
    "SEMICOLON",
    "TAB",
    "Table",
    "format_field",
    "format_rows",
    "parse_rows",
]
