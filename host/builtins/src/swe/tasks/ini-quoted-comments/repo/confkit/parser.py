"""Parsing configuration text."""

from typing import Optional

from .config import Config
from .errors import ParseError
from .lexer import classify
from .values import clean


def parse(text: str, config: Optional[Config] = None) -> Config:
    """Parse ``text`` into ``config`` (a new :class:`Config` by default)."""
    config = config if config is not None else Config()
    section = None
    last_key = None
    seen = set()
    for line in classify(text):
        if line.kind in ("blank", "comment"):
            continue
        if line.kind == "section":
            section = line.name
            config.add_section(section)
            last_key = None
        elif line.kind == "option":
            if section is None:
                raise ParseError("key outside of a section", line.lineno)
            key = line.name.lower()
            if (section, key) in seen:
                raise ParseError(f"duplicate key {key!r} in [{section}]", line.lineno)
            seen.add((section, key))
            config.set(section, key, clean(line.value))
            last_key = key
        elif line.kind == "continuation":
            if last_key is None:
                raise ParseError("continuation line without a key", line.lineno)
            previous = config.get(section, last_key, raw=True)
            config.set(section, last_key, f"{previous}\n{clean(line.value)}".strip("\n"))
        else:
            raise ParseError(f"cannot parse {line.value!r}", line.lineno)
    return config
