"""Stable user buckets."""

import hashlib


def bucket(flag: str, user: str) -> int:
    """A number from 0 to 99 that depends only on ``flag`` and ``user``."""
    digest = hashlib.sha256(f"{flag}:{user}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % 100
