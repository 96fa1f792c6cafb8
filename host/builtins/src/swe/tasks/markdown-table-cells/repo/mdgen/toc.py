"""Tables of contents."""

from typing import Iterable, List

from .blocks.heading import Heading
from .slug import SlugRegistry


def toc_lines(headings: Iterable[Heading], min_level: int = 2) -> List[str]:
    registry = SlugRegistry()
    lines = []
    for heading in headings:
        anchor = registry.anchor(heading.text)
        if heading.level < min_level:
            continue
        indent = "  " * (heading.level - min_level)
        lines.append(f"{indent}- [{heading.text}](#{anchor})")
    return lines
