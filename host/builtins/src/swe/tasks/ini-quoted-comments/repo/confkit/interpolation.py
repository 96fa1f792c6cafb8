"""``${key}`` and ``${section:key}`` references."""

import re

from .errors import InterpolationError

_REF = re.compile(r"\$(?:\$|\{(?:(?P<section>[^:}]+):)?(?P<key>[^}]+)\})")
MAX_DEPTH = 10


def interpolate(config, section: str, value: str, depth: int = 0) -> str:
    if depth > MAX_DEPTH:
        raise InterpolationError(f"too many levels of references in [{section}]")

    def replace(m):
        if m.group(0) == "$$":
            return "$"
        target = m.group("section") or section
        key = m.group("key").strip()
        if not config.has(target, key):
            raise InterpolationError(f"bad reference {m.group(0)} in [{section}]")
        return interpolate(config, target, config.get(target, key, raw=True), depth + 1)

    return _REF.sub(replace, value)
