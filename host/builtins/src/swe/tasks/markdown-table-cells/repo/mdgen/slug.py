"""GitHub style heading anchors."""

import re
from typing import Dict

_DROP = re.compile(r"[^\w\- ]", re.UNICODE)


def slugify(text: str) -> str:
    return _DROP.sub("", text.strip().lower()).replace(" ", "-")


class SlugRegistry:
    """Hands out unique anchors: repeated headings get ``-1``, ``-2``..."""

    def __init__(self) -> None:
        self._seen: Dict[str, int] = {}

    def anchor(self, text: str) -> str:
        base = slugify(text)
        count = self._seen.get(base, 0)
        self._seen[base] = count + 1
        return base if count == 0 else f"{base}-{count}"
