"""A list of records sharing one header."""

from typing import Dict, Iterable, List, Sequence

from .dialect import EXCEL, Dialect
from .errors import CsvError
from .reader import parse_rows
from .writer import format_rows


class Table:
    def __init__(self, header: Sequence[str], rows: Iterable[Sequence[str]] = ()):
        self.header = list(header)
        self.rows: List[List[str]] = []
        for row in rows:
            self.append(row)

    @classmethod
    def from_text(cls, text: str, dialect: Dialect = EXCEL) -> "Table":
        rows = parse_rows(text, dialect)
        if not rows:
            raise CsvError("no header row")
        return cls(rows[0], rows[1:])

    def append(self, row: Sequence[str]) -> None:
        if len(row) != len(self.header):
            raise CsvError(
                f"row has {len(row)} fields, header has {len(self.header)}: {list(row)!r}"
            )
        self.rows.append([str(v) for v in row])

    def records(self) -> List[Dict[str, str]]:
        return [dict(zip(self.header, row)) for row in self.rows]

    def column(self, name: str) -> List[str]:
        index = self.header.index(name)
        return [row[index] for row in self.rows]

    def select(self, *names: str) -> "Table":
        indexes = [self.header.index(n) for n in names]
        return Table(names, ([row[i] for i in indexes] for row in self.rows))

    def to_text(self, dialect: Dialect = EXCEL) -> str:
        return format_rows([self.header] + self.rows, dialect)

    def __len__(self) -> int:
        return len(self.rows)
