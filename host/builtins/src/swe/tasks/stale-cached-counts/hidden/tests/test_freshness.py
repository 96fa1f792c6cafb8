import math

import pytest

from wordbag import Corpus, Document


def test_append_refreshes_counts():
    doc = Document("intro", "the cat sat")
    assert doc.count("cat") == 1
    assert len(doc) == 2
    doc.append("the cat ran")
    assert doc.count("cat") == 2
    assert len(doc) == 4
    assert doc.tokens == ["cat", "sat", "cat", "ran"]
    assert doc.most_common(1) == [("cat", 2)]


def test_vocabulary_after_add():
    corpus = Corpus([Document("a", "red apple")])
    assert corpus.vocabulary() == ["apple", "red"]
    corpus.add(Document("b", "green pear"))
    assert corpus.vocabulary() == ["apple", "green", "pear", "red"]


def test_tfidf_after_append(pets):
    assert pets.document_frequency("log") == 1
    pets["c"].append("near a log")
    assert pets.document_frequency("log") == 2
    assert pets.tfidf("b")["log"] == pytest.approx(math.log(1.5) / 3)
    assert "near" in pets.vocabulary()
