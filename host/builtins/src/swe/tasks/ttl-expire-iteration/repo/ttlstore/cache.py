"""A cache whose entries expire."""

import time
from typing import Any, Callable, Dict, Hashable, Iterator, Optional, Tuple


class TTLCache:
    """Mapping with a per-entry time to live.

    An entry expires ``ttl`` seconds after it was set (or last touched):
    from that moment on it is gone.
    """

    def __init__(self, ttl: float, clock: Callable[[], float] = time.monotonic) -> None:
        if ttl <= 0:
            raise ValueError("ttl must be positive")
        self.ttl = ttl
        self.clock = clock
        self._entries: Dict[Hashable, Tuple[float, Any]] = {}

    def _expired(self, expires_at: float, now: float) -> bool:
        return now > expires_at

    def set(self, key: Hashable, value: Any, ttl: Optional[float] = None) -> None:
        self._entries[key] = (self.clock() + (ttl or self.ttl), value)

    def get(self, key: Hashable, default: Any = None) -> Any:
        item = self._entries.get(key)
        if item is None:
            return default
        expires_at, value = item
        if self._expired(expires_at, self.clock()):
            del self._entries[key]
            return default
        return value

    def touch(self, key: Hashable) -> bool:
        """Restart the lifetime of a live entry; returns whether it existed."""
        value = self.get(key, _MISSING)
        if value is _MISSING:
            return False
        self.set(key, value)
        return True

    def delete(self, key: Hashable) -> None:
        self._entries.pop(key, None)

    def expire(self) -> int:
        """Drop every expired entry; returns how many were dropped."""
        now = self.clock()
        removed = 0
        for key, (expires_at, _) in self._entries.items():
            if self._expired(expires_at, now):
                del self._entries[key]
                removed += 1
        return removed

    def items(self) -> Iterator[Tuple[Hashable, Any]]:
        now = self.clock()
        return iter(
            [(k, v) for k, (exp, v) in self._entries.items() if not self._expired(exp, now)]
        )

    def __contains__(self, key: Hashable) -> bool:
        return self.get(key, _MISSING) is not _MISSING

    def __len__(self) -> int:
        return sum(1 for _ in self.items())


_MISSING = object()
