"""Splitting text into lower-case words."""

import re
from typing import List

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def tokenize(text: str) -> List[str]:
    return [w.lower() for w in _WORD.findall(text)]
