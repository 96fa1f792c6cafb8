"""Assigning ranks to ordered entries."""

from dataclasses import dataclass
from typing import List, Sequence

from .entry import Entry
from .order import tie_key


@dataclass(frozen=True)
class Ranked:
    rank: int
    entry: Entry


def assign_ranks(ordered: Sequence[Entry]) -> List[Ranked]:
    """Standard competition ranking over already ordered entries."""
    result: List[Ranked] = []
    rank = 0
    previous = None
    for entry in ordered:
        key = tie_key(entry)
        if key != previous:
            rank += 1
            previous = key
        result.append(Ranked(rank, entry))
    return result
