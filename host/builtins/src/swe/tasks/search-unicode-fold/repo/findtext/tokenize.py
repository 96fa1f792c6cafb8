"""Splitting text into words."""

import re
from typing import Iterator, List, Tuple

_WORD = re.compile(r"[A-Za-z0-9]+")


def spans(text: str) -> Iterator[Tuple[int, int, str]]:
    """``(start, end, word)`` for each word of ``text``."""
    for match in _WORD.finditer(text):
        yield match.start(), match.end(), match.group()


def tokenize(text: str) -> List[str]:
    return [word for _, _, word in spans(text)]
