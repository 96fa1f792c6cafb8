def test_search_single_term(index):
    assert index.search("vanilla") == ["news", "recipe"]
    assert index.search("nothing") == []
    assert index.search("") == []


def test_search_is_case_insensitive(index):
    assert index.search("SUGAR") == ["howto"]


def test_multiple_terms_are_anded(index):
    assert index.search("vanilla recipe") == ["recipe"]
    assert index.search("vanilla sugar") == []


def test_remove_document(index):
    index.remove("news")
    assert index.search("vanilla") == ["recipe"]
    assert "prices" not in index.terms()
    assert len(index) == 2


def test_count(index):
    index.add("twice", "Vanilla and more VANILLA")
    assert index.count("twice", "vanilla") == 2
    assert index.count("missing", "vanilla") == 0
