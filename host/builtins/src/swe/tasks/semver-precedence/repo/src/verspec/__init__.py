"""Semantic version parsing, ordering and range matching."""

from .bump import bump_major, bump_minor, bump_patch, bump_prerelease
from .caret import caret_range
from .errors import InvalidSpecifier, InvalidVersion, VerspecError
from .formatting import describe
from .sorting import latest, max_satisfying, sort_versions
from .spec import Specifier
from .specset import SpecifierSet
from .tilde import tilde_range
from .version import Version

__all__ = [
    "InvalidSpecifier",
    "InvalidVersion",
    "Specifier",
    "SpecifierSet",
    "Version",
    "VerspecError",
    "bump_major",
    "bump_minor",
    "bump_patch",
    "bump_prerelease",
    "caret_range",
    "describe",
    "latest",
    "max_satisfying",
    "sort_versions",
    "tilde_range",
]
