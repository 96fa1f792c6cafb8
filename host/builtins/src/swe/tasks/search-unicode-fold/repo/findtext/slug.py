"""URL slugs."""

import re

from .normalize import strip_accents

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(title: str, max_length: int = 60) -> str:
    slug = _NON_ALNUM.sub("-", strip_accents(title).lower()).strip("-")
    return slug[:max_length].rstrip("-")
