"""Cache statistics."""

from typing import NamedTuple


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    size: int
    capacity: int

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0
