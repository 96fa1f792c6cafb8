from findtext import tokenize


def test_tokenize_ascii():
    assert tokenize("Hello, world! It's 2024.") == ["Hello", "world", "It", "s", "2024"]
