"""Comma separated specifier sets."""

from __future__ import annotations

from typing import Iterable, List

from .errors import InvalidSpecifier
from .spec import Specifier
from .version import Version, VersionLike


class SpecifierSet:
    """A conjunction of :class:`Specifier` objects.

    ``^`` and ``~`` shorthands are expanded on parsing.
    """

    def __init__(self, text: str = "") -> None:
        from .caret import caret_range
        from .tilde import tilde_range

        self.specifiers: List[Specifier] = []
        for chunk in text.split(","):
            chunk = chunk.strip()
            if not chunk:
                continue
            if chunk.startswith("^"):
                self.specifiers.extend(caret_range(chunk).specifiers)
            elif chunk.startswith("~"):
                self.specifiers.extend(tilde_range(chunk).specifiers)
            else:
                self.specifiers.append(Specifier(chunk))
        if text.strip() and not self.specifiers:
            raise InvalidSpecifier(f"empty specifier set: {text!r}")

    @classmethod
    def of(cls, specifiers: Iterable[Specifier]) -> "SpecifierSet":
        new = cls()
        new.specifiers = list(specifiers)
        return new

    def contains(self, version: VersionLike, include_prerelease: bool = False) -> bool:
        v = Version.parse(version)
        if v.is_prerelease and not include_prerelease:
            return False
        return all(s.contains(v, include_prerelease=True) for s in self.specifiers)

    __contains__ = contains

    def filter(self, versions: Iterable[VersionLike], include_prerelease: bool = False):
        return [v for v in versions if self.contains(v, include_prerelease)]

    def __str__(self) -> str:
        return ",".join(str(s) for s in self.specifiers)

    def __repr__(self) -> str:
        return f"SpecifierSet({str(self)!r})"
