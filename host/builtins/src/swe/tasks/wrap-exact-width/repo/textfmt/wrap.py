"""Greedy word wrapping."""

from typing import List


def _check_width(width: int) -> None:
    if not isinstance(width, int) or width < 1:
        raise ValueError(f"width must be a positive int, got {width!r}")


def wrap(text: str, width: int = 70) -> List[str]:
    """Wrap ``text`` into lines of at most ``width`` characters.

    Words are separated by single spaces; a word longer than ``width`` is
    split into pieces of ``width`` characters.
    """
    _check_width(width)
    lines: List[str] = []
    current = ""
    for word in text.split():
        while len(word) > width:
            if current:
                lines.append(current)
                current = ""
            lines.append(word[:width])
            word = word[width:]
        if not word:
            continue
        if not current:
            current = word
        elif len(current) + 1 + len(word) < width:
            current += " " + word
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def fill(text: str, width: int = 70) -> str:
    return "\n".join(wrap(text, width))
