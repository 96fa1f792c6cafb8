from confkit.lexer import classify


def test_classify_lines():
    text = "; c\n\n[main] ; note\nkey = v\n  more\nbroken"
    kinds = [(l.kind, l.name, l.value) for l in classify(text)]
    assert kinds == [
        ("comment", None, None),
        ("blank", None, None),
        ("section", "main", None),
        ("option", "key", "v"),
        ("continuation", None, "more"),
        ("invalid", None, "broken"),
    ]
