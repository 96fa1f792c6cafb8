"""Cleaning up raw values: inline comments and quotes."""

import re

_COMMENT = re.compile(r"\s[;#]")
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


def strip_inline_comment(value: str) -> str:
    """Remove a trailing inline comment.

    A comment starts at ``;`` or ``#`` preceded by whitespace. Characters
    inside a quoted value never start a comment.
    """
    value = value.strip()
    m = _COMMENT.search(value)
    return value[: m.start()].rstrip() if m else value


def unquote(value: str) -> str:
    """Remove matching surrounding quotes; handle escapes in double quotes."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        if value[0] == "'":
            return inner
        out = []
        chars = iter(inner)
        for ch in chars:
            if ch == "\\":
                nxt = next(chars, "")
                out.append(_ESCAPES.get(nxt, "\\" + nxt))
            else:
                out.append(ch)
        return "".join(out)
    return value


def clean(value: str) -> str:
    return unquote(strip_inline_comment(value))
