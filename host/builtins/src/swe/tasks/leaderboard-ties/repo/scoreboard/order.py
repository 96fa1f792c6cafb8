"""Sorting entries by the contest rules."""

from typing import Iterable, List

from .entry import Entry


def tie_key(entry: Entry):
    """Entries with equal keys share a rank."""
    return (entry.score, entry.seconds)


def order_entries(entries: Iterable[Entry]) -> List[Entry]:
    """Best entry first: score descending, then time ascending, then name."""
    by_name = sorted(entries, key=lambda e: e.name)
    return sorted(by_name, key=lambda e: (e.score, e.seconds), reverse=True)
