"""Producing the next version."""

from .version import Version, VersionLike


def bump_major(version: VersionLike) -> Version:
    v = Version.parse(version)
    return Version(v.major + 1, 0, 0)


def bump_minor(version: VersionLike) -> Version:
    v = Version.parse(version)
    return Version(v.major, v.minor + 1, 0)


def bump_patch(version: VersionLike) -> Version:
    """Next patch release; a pre-release is promoted to its release."""
    v = Version.parse(version)
    if v.is_prerelease:
        return Version(v.major, v.minor, v.patch)
    return Version(v.major, v.minor, v.patch + 1)


def bump_prerelease(version: VersionLike, tag: str = "rc") -> Version:
    """Next pre-release.

    ``1.2.3`` becomes ``1.2.4-rc.1``; ``1.2.4-rc.1`` becomes ``1.2.4-rc.2``;
    ``1.2.4-beta`` becomes ``1.2.4-beta.1``.
    """
    v = Version.parse(version)
    if not v.is_prerelease:
        return Version(v.major, v.minor, v.patch + 1, (tag, "1"))
    parts = list(v.prerelease)
    if parts[-1].isdigit():
        parts[-1] = str(int(parts[-1]) + 1)
    else:
        parts.append("1")
    return Version(v.major, v.minor, v.patch, parts)
