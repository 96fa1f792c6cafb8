"""A fixed-capacity mapping that evicts the least recently used entry."""

from collections import OrderedDict
from typing import Any, Hashable, Iterator, Optional

from .stats import CacheInfo

_MISSING = object()


class LRUCache:
    """Mapping with at most ``capacity`` entries.

    Both :meth:`get` (on a hit) and :meth:`put` mark an entry as the most
    recently used one; when the cache is full, :meth:`put` evicts the least
    recently used entry.
    """

    def __init__(self, capacity: int = 128) -> None:
        if not isinstance(capacity, int) or capacity <= 0:
            raise ValueError("capacity must be a positive int")
        self.capacity = capacity
        self._data: "OrderedDict[Hashable, Any]" = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, default: Optional[Any] = None) -> Any:
        value = self._data.get(key, _MISSING)
        if value is _MISSING:
            self.misses += 1
            return default
        self.hits += 1
        return value

    def put(self, key: Hashable, value: Any) -> None:
        if key in self._data:
            self._data[key] = value
            return
        if len(self._data) >= self.capacity:
            self._data.popitem(last=False)
        self._data[key] = value

    def pop(self, key: Hashable, default: Optional[Any] = None) -> Any:
        return self._data.pop(key, default)

    def clear(self) -> None:
        self._data.clear()
        self.hits = self.misses = 0

    def keys(self) -> Iterator[Hashable]:
        """Keys from least to most recently used."""
        return iter(list(self._data))

    def info(self) -> CacheInfo:
        return CacheInfo(self.hits, self.misses, len(self._data), self.capacity)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)
