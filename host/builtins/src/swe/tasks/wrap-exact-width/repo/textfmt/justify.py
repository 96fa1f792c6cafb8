"""Full justification."""

from typing import List

from .wrap import wrap


def justify_line(line: str, width: int) -> str:
    words = line.split(" ")
    if len(words) == 1:
        return line
    gaps = len(words) - 1
    spaces = width - sum(len(w) for w in words)
    base, extra = divmod(spaces, gaps)
    out = []
    for i, word in enumerate(words[:-1]):
        out.append(word + " " * (base + (1 if i < extra else 0)))
    out.append(words[-1])
    return "".join(out)


def justify(text: str, width: int = 70) -> List[str]:
    """Wrap and stretch every line but the last to exactly ``width``."""
    lines = wrap(text, width)
    return [justify_line(line, width) for line in lines[:-1]] + lines[-1:]
