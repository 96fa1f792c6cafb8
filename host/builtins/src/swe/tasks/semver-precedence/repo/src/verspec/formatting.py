"""Human readable descriptions of versions."""

from .version import Version, VersionLike


def describe(version: VersionLike) -> str:
    v = Version.parse(version)
    if v.major == 0:
        stage = "initial development"
    else:
        stage = "stable"
    text = f"{v.major}.{v.minor}.{v.patch} ({stage})"
    if v.is_prerelease:
        text += f", pre-release {'.'.join(v.prerelease)}"
    if v.build:
        text += f", build {'.'.join(v.build)}"
    return text
