from findtext import highlight


def test_highlight_ascii():
    assert highlight("Vanilla and sugar", "SUGAR vanilla") == "[Vanilla] and [sugar]"
    assert highlight("nothing here", "x", "<b>", "</b>") == "nothing here"
