"""Dialects describe the punctuation of a delimited file."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Dialect:
    delimiter: str = ","
    quotechar: str = '"'
    lineterminator: str = "\n"

    def __post_init__(self):
        if len(self.delimiter) != 1 or len(self.quotechar) != 1:
            raise ValueError("delimiter and quotechar must be single characters")
        if self.delimiter == self.quotechar:
            raise ValueError("delimiter and quotechar must differ")


EXCEL = Dialect()
SEMICOLON = Dialect(delimiter=";")
TAB = Dialect(delimiter="\t")
