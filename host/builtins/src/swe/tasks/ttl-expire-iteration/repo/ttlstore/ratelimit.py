"""Fixed window rate limiting."""

import time
from typing import Callable, Dict, Hashable, Tuple


class RateLimiter:
    """At most ``limit`` hits per key in each window of ``window`` seconds."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._counts: Dict[Hashable, Tuple[int, int]] = {}

    def hit(self, key: Hashable) -> bool:
        current = int(self.clock() // self.window)
        window, count = self._counts.get(key, (current, 0))
        if window != current:
            count = 0
        if count >= self.limit:
            self._counts[key] = (current, count)
            return False
        self._counts[key] = (current, count + 1)
        return True

    def prune(self) -> None:
        current = int(self.clock() // self.window)
        stale = [k for k, (w, _) in self._counts.items() if w != current]
        for key in stale:
            del self._counts[key]
