"""Documents with cached derived values."""

from collections import Counter
from functools import cached_property
from typing import List, Tuple

from .stopwords import STOPWORDS
from .tokenize import tokenize


class Document:
    def __init__(self, name: str, text: str = "") -> None:
        self.name = name
        self._parts: List[str] = [text] if text else []

    @property
    def text(self) -> str:
        return " ".join(self._parts)

    def append(self, text: str) -> None:
        """Add more text at the end of the document."""
        self._parts.append(text)

    @cached_property
    def tokens(self) -> List[str]:
        """Words of the document, stop words removed."""
        return [t for t in tokenize(self.text) if t not in STOPWORDS]

    @cached_property
    def counts(self) -> Counter:
        return Counter(self.tokens)

    def count(self, word: str) -> int:
        return self.counts[word.lower()]

    def most_common(self, n: int) -> List[Tuple[str, int]]:
        """The ``n`` most frequent words; ties in alphabetical order."""
        return sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]

    def __len__(self) -> int:
        return len(self.tokens)

    def __repr__(self) -> str:
        return f"Document({self.name!r}, {len(self)} tokens)"
