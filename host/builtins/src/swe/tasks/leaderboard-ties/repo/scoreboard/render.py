"""Plain text tables."""

from typing import Sequence

from .ranking import Ranked


def _time(seconds: int) -> str:
    minutes, secs = divmod(seconds, 60)
    return f"{minutes}:{secs:02d}"


def render_table(standings: Sequence[Ranked]) -> str:
    if not standings:
        return "(no entries)"
    width = max([len("name")] + [len(r.entry.name) for r in standings])
    lines = [f"{'#':>3}  {'name':<{width}}  score   time"]
    for r in standings:
        e = r.entry
        lines.append(f"{r.rank:>3}  {e.name:<{width}}  {e.score:>5}  {_time(e.seconds):>5}")
    return "\n".join(lines)
