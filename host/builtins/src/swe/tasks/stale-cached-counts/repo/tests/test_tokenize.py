from wordbag import tokenize


def test_tokenize():
    assert tokenize("It's 3 o'clock, Zoë!") == ["it's", "o'clock", "zoë"]
