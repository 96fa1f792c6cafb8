import pytest

from wordbag import Corpus, Document
from wordbag.similarity import cosine


def test_identical_documents():
    corpus = Corpus([Document("x", "alpha beta"), Document("y", "alpha beta"), Document("z", "gamma")])
    assert corpus.similarity("x", "y") == pytest.approx(1.0)


def test_disjoint_documents(pets):
    assert pets.similarity("a", "c") == 0.0
    assert cosine({}, {"a": 1.0}) == 0.0
