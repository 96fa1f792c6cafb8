"""The inverted index."""

from collections import defaultdict
from typing import Dict, List, Set

from .normalize import normalize_term
from .tokenize import tokenize


class Index:
    def __init__(self) -> None:
        self._postings: Dict[str, Set[str]] = defaultdict(set)
        self._docs: Dict[str, List[str]] = {}

    def add(self, doc_id: str, text: str) -> None:
        if doc_id in self._docs:
            self.remove(doc_id)
        terms = [normalize_term(t) for t in tokenize(text)]
        self._docs[doc_id] = terms
        for term in terms:
            self._postings[term].add(doc_id)

    def remove(self, doc_id: str) -> None:
        for term in self._docs.pop(doc_id, []):
            self._postings[term].discard(doc_id)
            if not self._postings[term]:
                del self._postings[term]

    def terms(self) -> List[str]:
        return sorted(self._postings)

    def search(self, query: str) -> List[str]:
        """Ids of documents containing every term of ``query``, sorted."""
        terms = [normalize_term(t) for t in tokenize(query)]
        if not terms:
            return []
        result = set(self._postings.get(terms[0], set()))
        for term in terms[1:]:
            result &= self._postings.get(term, set())
        return sorted(result)

    def count(self, doc_id: str, term: str) -> int:
        """How many times ``term`` occurs in the document."""
        wanted = normalize_term(term)
        return sum(1 for t in self._docs.get(doc_id, []) if t == wanted)

    def __len__(self) -> int:
        return len(self._docs)
