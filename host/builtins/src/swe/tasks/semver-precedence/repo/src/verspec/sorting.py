"""Sorting and selecting versions."""

from __future__ import annotations

from typing import Iterable, List, Optional

from .specset import SpecifierSet
from .version import Version, VersionLike


def sort_versions(items: Iterable[VersionLike], reverse: bool = False) -> List[str]:
    """Sort version strings by precedence; returns strings."""
    return [str(v) for v in sorted((Version.parse(i) for i in items), reverse=reverse)]


def max_satisfying(
    items: Iterable[VersionLike], spec: str, include_prerelease: bool = False
) -> Optional[str]:
    """The highest version in ``items`` matching ``spec``, or ``None``."""
    matching = SpecifierSet(spec).filter(
        (Version.parse(i) for i in items), include_prerelease=include_prerelease
    )
    return str(max(matching)) if matching else None


def latest(items: Iterable[VersionLike], include_prerelease: bool = False) -> Optional[str]:
    versions = [Version.parse(i) for i in items]
    if not include_prerelease:
        versions = [v for v in versions if not v.is_prerelease]
    return str(max(versions)) if versions else None
