"""Values that change at points in time."""

import bisect
from datetime import datetime
from typing import Generic, List, Tuple, TypeVar

T = TypeVar("T")


class Timeline(Generic[T]):
    """A step function of time.

    ``set(when, value)`` makes ``value`` apply from ``when`` (inclusive)
    until the next change. Before the first change ``default`` applies.
    """

    def __init__(self, default: T) -> None:
        self.default = default
        self._times: List[datetime] = []
        self._values: List[T] = []

    def set(self, when: datetime, value: T) -> None:
        i = bisect.bisect_left(self._times, when)
        if i < len(self._times) and self._times[i] == when:
            self._values[i] = value
        else:
            self._times.insert(i, when)
            self._values.insert(i, value)

    def value_at(self, when: datetime) -> T:
        i = bisect.bisect_left(self._times, when)
        return self._values[i - 1] if i else self.default

    def changes(self) -> List[Tuple[datetime, T]]:
        return list(zip(self._times, self._values))

    def __len__(self) -> int:
        return len(self._times)
