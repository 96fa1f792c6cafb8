"""Single comparison specifiers such as ``>=1.2``."""

from __future__ import annotations

import operator

from ._regex import PARTIAL_RE, SPECIFIER_RE
from .errors import InvalidSpecifier
from .version import Version, VersionLike

_OPERATORS = {
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}


def parse_partial(text: str) -> Version:
    """Parse ``1``, ``1.2`` or ``1.2.3`` (optionally with a pre-release)."""
    match = PARTIAL_RE.fullmatch(text)
    if match is None:
        raise InvalidSpecifier(f"invalid version in specifier: {text!r}")
    pre = match.group("prerelease")
    return Version(
        int(match.group("major")),
        int(match.group("minor") or 0),
        int(match.group("patch") or 0),
        pre.split(".") if pre else (),
    )


class Specifier:
    """One operator and one version."""

    def __init__(self, text: str) -> None:
        match = SPECIFIER_RE.fullmatch(text)
        if match is None:
            raise InvalidSpecifier(f"invalid specifier: {text!r}")
        self.operator = match.group("op") or "=="
        self.version = parse_partial(match.group("version"))

    def contains(self, version: VersionLike, include_prerelease: bool = False) -> bool:
        v = Version.parse(version)
        if v.is_prerelease and not include_prerelease:
            return False
        return _OPERATORS[self.operator](v, self.version)

    __contains__ = contains

    def __str__(self) -> str:
        return f"{self.operator}{self.version}"

    def __repr__(self) -> str:
        return f"Specifier({str(self)!r})"
