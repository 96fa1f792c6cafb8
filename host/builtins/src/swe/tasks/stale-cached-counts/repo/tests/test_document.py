from wordbag import Document


def test_tokens_and_counts():
    doc = Document("x", "Red fish blue fish")
    assert doc.tokens == ["red", "fish", "blue", "fish"]
    assert doc.count("FISH") == 2
    assert len(doc) == 4


def test_stopwords_removed():
    assert Document("x", "the cat and the hat").tokens == ["cat", "hat"]


def test_most_common():
    doc = Document("x", "b d b c d b")
    assert doc.most_common(2) == [("b", 3), ("d", 2)]
    assert Document("y", "z y x").most_common(2) == [("x", 1), ("y", 1)]


def test_append_before_first_use():
    doc = Document("x")
    doc.append("one two")
    assert doc.text == "one two" and len(doc) == 2
