"""Display width of text in a monospace font."""

import unicodedata


def char_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Number of monospace columns ``text`` occupies."""
    return sum(char_width(c) for c in text)
