"""Collections of documents."""

import math
from typing import Dict, Iterable, List, Optional

from .document import Document
from .similarity import cosine


class Corpus:
    def __init__(self, documents: Iterable[Document] = ()) -> None:
        self._docs: Dict[str, Document] = {}
        self._vocab: Optional[List[str]] = None
        for doc in documents:
            self.add(doc)

    def add(self, doc: Document) -> None:
        if doc.name in self._docs:
            raise ValueError(f"duplicate document name {doc.name!r}")
        self._docs[doc.name] = doc

    def __getitem__(self, name: str) -> Document:
        return self._docs[name]

    def __len__(self) -> int:
        return len(self._docs)

    def vocabulary(self) -> List[str]:
        """Sorted list of every word in the corpus (cached)."""
        if self._vocab is None:
            words = set()
            for doc in self._docs.values():
                words.update(doc.counts)
            self._vocab = sorted(words)
        return list(self._vocab)

    def document_frequency(self, word: str) -> int:
        word = word.lower()
        return sum(1 for doc in self._docs.values() if doc.counts[word])

    def idf(self, word: str) -> float:
        df = self.document_frequency(word)
        return math.log(len(self._docs) / df) if df else 0.0

    def tfidf(self, name: str) -> Dict[str, float]:
        doc = self._docs[name]
        total = len(doc) or 1
        return {w: (c / total) * self.idf(w) for w, c in sorted(doc.counts.items())}

    def similarity(self, a: str, b: str) -> float:
        return cosine(self.tfidf(a), self.tfidf(b))
