"""Contest leaderboards."""

from .board import Leaderboard
from .entry import Entry, parse_line
from .ranking import Ranked

__all__ = ["Entry", "Leaderboard", "Ranked", "parse_line"]
