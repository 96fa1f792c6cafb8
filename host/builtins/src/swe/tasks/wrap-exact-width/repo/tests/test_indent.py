from textfmt import dedent, indent


def test_indent_and_dedent():
    text = "a\n\n  b"
    assert indent(text, "> ") == "> a\n\n>   b"
    assert dedent("    x\n      y\n\n    z") == "x\n  y\n\nz"
