from findtext import normalize_term, strip_accents


def test_strip_accents():
    assert strip_accents("Crème Brûlée") == "Creme Brulee"
    assert strip_accents("ﬁne") == "fine"


def test_normalize_term_ascii():
    assert normalize_term("HeLLo") == "hello"
