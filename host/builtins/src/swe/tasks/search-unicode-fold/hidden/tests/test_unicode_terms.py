from findtext import Index, highlight, normalize_term


def test_sharp_s_matches_double_s():
    idx = Index()
    idx.add("a", "Große Straße 5, Zürich")
    idx.add("c", "STRASSE DES 17. JUNI")
    assert idx.search("strasse") == ["a", "c"]
    assert idx.search("Straße") == ["a", "c"]
    assert normalize_term("MASSE") == normalize_term("Maße")


def test_words_with_accents_are_kept_whole():
    idx = Index()
    idx.add("a", "Große Straße 5, Zürich")
    idx.add("b", "A naïve approach to Ærøskøbing")
    assert idx.search("zurich") == ["a"]
    assert idx.search("ZÜRICH") == ["a"]
    assert idx.search("naive approach") == ["b"]
    assert idx.search("ÆRØSKØBING") == ["b"]
    assert "z" not in idx.terms() and "rich" not in idx.terms()
    assert idx.count("b", "NAIVE") == 1


def test_readme_example():
    idx = Index()
    idx.add("doc1", "The Crème Brûlée recipe")
    assert idx.search("creme brulee") == ["doc1"]


def test_highlight_non_ascii():
    assert highlight("Grüße aus Zürich", "zurich grusse") == "[Grüße] aus [Zürich]"
