"""Marking matches in text."""

from .normalize import normalize_term
from .tokenize import spans, tokenize


def highlight(text: str, query: str, before: str = "[", after: str = "]") -> str:
    wanted = {normalize_term(t) for t in tokenize(query)}
    out = []
    last = 0
    for start, end, word in spans(text):
        if normalize_term(word) in wanted:
            out.append(text[last:start])
            out.append(before + word + after)
            last = end
    out.append(text[last:])
    return "".join(out)
