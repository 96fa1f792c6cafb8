"""Contest entries."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    name: str
    score: int
    seconds: int

    def __post_init__(self):
        if not self.name:
            raise ValueError("name must not be empty")
        if self.score < 0 or self.seconds < 0:
            raise ValueError("score and seconds must be non-negative")


def parse_line(line: str) -> Entry:
    """Parse ``name,score,seconds``."""
    name, score, seconds = (part.strip() for part in line.split(","))
    return Entry(name, int(score), int(seconds))
