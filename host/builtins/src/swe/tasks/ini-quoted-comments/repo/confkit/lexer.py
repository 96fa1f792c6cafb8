"""Classifying the lines of a configuration file."""

import re
from typing import Iterator, NamedTuple, Optional

_SECTION = re.compile(r"^\[(?P<name>[^\]]+)\]\s*(?:[;#].*)?$")
_OPTION = re.compile(r"^(?P<key>[^=:\s][^=:]*?)\s*[=:]\s*(?P<value>.*)$")


class Line(NamedTuple):
    kind: str  # "blank", "comment", "section", "option", "continuation"
    lineno: int
    name: Optional[str] = None
    value: Optional[str] = None


def classify(text: str) -> Iterator[Line]:
    for lineno, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped:
            yield Line("blank", lineno)
        elif stripped[0] in ";#":
            yield Line("comment", lineno)
        elif raw[0].isspace():
            yield Line("continuation", lineno, value=stripped)
        elif _SECTION.match(stripped):
            yield Line("section", lineno, name=_SECTION.match(stripped).group("name").strip())
        else:
            m = _OPTION.match(stripped)
            if m is None:
                yield Line("invalid", lineno, value=raw)
            else:
                yield Line("option", lineno, name=m.group("key").strip(), value=m.group("value"))
