"""Planning the extraction of archive members."""

from typing import Dict, Iterable

from .join import join
from .normalize import is_absolute, normalize


class UnsafePathError(ValueError):
    """An archive member would be written outside the destination."""


def member_target(name: str, dest: str) -> str:
    if is_absolute(name):
        raise UnsafePathError(f"absolute member name: {name!r}")
    rel = normalize(name)
    if rel == ".." or rel.startswith("../"):
        raise UnsafePathError(f"member escapes destination: {name!r}")
    return join(dest, rel)


def plan_extraction(names: Iterable[str], dest: str) -> Dict[str, str]:
    """Map each member name to where it would be written under ``dest``."""
    return {name: member_target(name, dest) for name in names}
