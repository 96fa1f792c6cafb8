"""The :class:`Interval` value type."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Interval:
    """A closed interval ``[start, end]``."""

    start: float
    end: float

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"interval end {self.end!r} is before start {self.start!r}")

    def __repr__(self) -> str:
        return f"Interval({self.start!r}, {self.end!r})"

    @property
    def length(self) -> float:
        return self.end - self.start

    def contains(self, value: float) -> bool:
        return self.start <= value <= self.end

    def overlaps(self, other: "Interval") -> bool:
        """True when the intervals share at least one point."""
        return self.start <= other.end and other.start <= self.end
