"""Escaping of inline text."""

_SPECIAL = "\\`*_[]#<>"


def escape_inline(text: str) -> str:
    """Backslash-escape characters that Markdown would interpret."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def escape_cell(text: str) -> str:
    """Make ``text`` safe inside a table cell.

    Line breaks become ``<br>`` and pipe characters are escaped, so that the
    cell cannot end early.
    """
    return text.replace("\r\n", "\n").replace("\n", "<br>")


def code_span(text: str) -> str:
    """Inline code; uses a longer fence when the text contains backticks."""
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
