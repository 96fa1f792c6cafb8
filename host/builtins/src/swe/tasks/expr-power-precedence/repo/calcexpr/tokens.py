"""Splitting expression text into tokens."""

import re
from dataclasses import dataclass
from typing import List

from .errors import ParseError

NUMBER = r"\d+(?:\.\d*)?"
NAME = r"[A-Za-z_][A-Za-z_0-9]*"
OPERATOR = r"\*\*|//|[-+*/%(),]"

_TOKEN = re.compile(rf"\s*(?:(?P<number>{NUMBER})|(?P<name>{NAME})|(?P<op>{OPERATOR}))")


@dataclass(frozen=True)
class Token:
    kind: str  # "number", "name", "op" or "end"
    value: str
    pos: int


def tokenize(text: str) -> List[Token]:
    tokens = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            bad = text[pos:].lstrip()[:1]
            where = len(text) - len(text[pos:].lstrip())
            raise ParseError(f"unexpected character {bad!r} at position {where}")
        kind = match.lastgroup
        tokens.append(Token(kind, match.group(kind), match.start(kind)))
        pos = match.end()
    tokens.append(Token("end", "", len(text)))
    return tokens
