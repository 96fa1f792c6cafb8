"""Helpers for pre-release identifiers."""

from typing import Sequence, Tuple


def is_numeric(identifier: str) -> bool:
    return identifier.isdigit()


def identifier_key(identifier: str) -> Tuple:
    """Sort key for one dot-separated pre-release identifier.

    Numeric identifiers rank below alphanumeric ones.
    """
    if is_numeric(identifier):
        return (0, identifier)
    return (1, identifier)


def prerelease_key(identifiers: Sequence[str]) -> Tuple:
    """Sort key for a whole pre-release tuple such as ``("beta", "2")``."""
    return tuple(identifier_key(part) for part in identifiers)


def validate_identifiers(identifiers: Sequence[str]) -> None:
    for part in identifiers:
        if not part:
            raise ValueError("empty pre-release identifier")
        if is_numeric(part) and len(part) > 1 and part.startswith("0"):
            raise ValueError(f"numeric identifier with leading zero: {part!r}")
