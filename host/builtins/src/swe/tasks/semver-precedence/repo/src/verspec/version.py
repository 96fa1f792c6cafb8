"""The :class:`Version` type."""

from __future__ import annotations

import functools
from typing import Iterable, Tuple, Union

from ._regex import VERSION_RE
from .errors import InvalidVersion
from .prerelease import prerelease_key, validate_identifiers

VersionLike = Union["Version", str]


@functools.total_ordering
class Version:
    """A parsed semantic version. Instances are immutable and hashable."""

    __slots__ = ("major", "minor", "patch", "prerelease", "build")

    def __init__(
        self,
        major: int,
        minor: int = 0,
        patch: int = 0,
        prerelease: Iterable[str] = (),
        build: Iterable[str] = (),
    ) -> None:
        for name, value in (("major", major), ("minor", minor), ("patch", patch)):
            if not isinstance(value, int) or value < 0:
                raise InvalidVersion(f"{name} must be a non-negative int, got {value!r}")
        prerelease = tuple(str(p) for p in prerelease)
        try:
            validate_identifiers(prerelease)
        except ValueError as exc:
            raise InvalidVersion(str(exc)) from None
        object.__setattr__(self, "major", major)
        object.__setattr__(self, "minor", minor)
        object.__setattr__(self, "patch", patch)
        object.__setattr__(self, "prerelease", prerelease)
        object.__setattr__(self, "build", tuple(str(b) for b in build))

    def __setattr__(self, name, value):
        raise AttributeError("Version is immutable")

    @classmethod
    def parse(cls, text: VersionLike) -> "Version":
        if isinstance(text, Version):
            return text
        if not isinstance(text, str):
            raise InvalidVersion(f"expected a string, got {type(text).__name__}")
        match = VERSION_RE.fullmatch(text.strip())
        if match is None:
            raise InvalidVersion(f"invalid version: {text!r}")
        pre = match.group("prerelease")
        build = match.group("build")
        return cls(
            int(match.group("major")),
            int(match.group("minor")),
            int(match.group("patch")),
            pre.split(".") if pre else (),
            build.split(".") if build else (),
        )

    @property
    def release(self) -> Tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    @property
    def is_prerelease(self) -> bool:
        return bool(self.prerelease)

    def _key(self) -> Tuple:
        return (self.major, self.minor, self.patch, prerelease_key(self.prerelease))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            other = Version.parse(other)
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: VersionLike) -> bool:
        if isinstance(other, str):
            other = Version.parse(other)
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            text += "-" + ".".join(self.prerelease)
        if self.build:
            text += "+" + ".".join(self.build)
        return text

    def __repr__(self) -> str:
        return f"Version({str(self)!r})"
