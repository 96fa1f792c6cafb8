"""LRU caching utilities."""

from .decorators import lru_cached
from .lru import LRUCache
from .stats import CacheInfo

__all__ = ["CacheInfo", "LRUCache", "lru_cached"]
