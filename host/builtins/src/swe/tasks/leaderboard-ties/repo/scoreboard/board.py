"""The leaderboard."""

from typing import Iterable, List

from .entry import Entry
from .order import order_entries
from .ranking import Ranked, assign_ranks


class Leaderboard:
    def __init__(self, entries: Iterable[Entry] = ()) -> None:
        self._entries: List[Entry] = list(entries)

    def add(self, entry: Entry) -> None:
        self._entries.append(entry)

    def standings(self) -> List[Ranked]:
        return assign_ranks(order_entries(self._entries))

    def top(self, n: int) -> List[Ranked]:
        """Everybody ranked ``n`` or better (ties may give more than ``n``)."""
        return [r for r in self.standings() if r.rank <= n]

    def render(self) -> str:
        from .render import render_table

        return render_table(self.standings())

    def __len__(self) -> int:
        return len(self._entries)
