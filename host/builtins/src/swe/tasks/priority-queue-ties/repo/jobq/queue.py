"""A priority queue of arbitrary items."""

import heapq
from typing import Any, List, Tuple


class EmptyQueue(IndexError):
    """Raised by :meth:`JobQueue.pop` and :meth:`JobQueue.peek` on an empty queue."""


class JobQueue:
    """Min-priority queue.

    Items with a lower ``priority`` come out first; items with equal
    priority come out in the order they were pushed (FIFO). Items do not
    need to be comparable.
    """

    def __init__(self) -> None:
        self._heap: List[Tuple[Any, ...]] = []

    def push(self, item: Any, priority: int = 0) -> None:
        heapq.heappush(self._heap, (priority, item))

    def pop(self) -> Any:
        if not self._heap:
            raise EmptyQueue("pop from an empty JobQueue")
        return heapq.heappop(self._heap)[-1]

    def peek(self) -> Any:
        if not self._heap:
            raise EmptyQueue("peek at an empty JobQueue")
        return self._heap[0][-1]

    def __len__(self) -> int:
        return len(self._heap)

    def __bool__(self) -> bool:
        return bool(self._heap)
