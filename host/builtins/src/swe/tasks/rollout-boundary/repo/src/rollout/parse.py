"""Parsing rollout schedules."""

import re
from datetime import datetime

from .timeline import Timeline

_LINE = re.compile(r"^(?P<when>\S+)\s+(?P<percent>\d{1,3})%$")


class ScheduleError(ValueError):
    """A schedule line could not be parsed."""


def parse_schedule(text: str) -> Timeline:
    """One ``ISO-TIMESTAMP PERCENT%`` per line; ``#`` starts a comment."""
    timeline: Timeline = Timeline(default=0)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _LINE.match(line)
        if m is None:
            raise ScheduleError(f"line {lineno}: expected 'TIMESTAMP PERCENT%', got {raw.strip()!r}")
        try:
            when = datetime.fromisoformat(m.group("when"))
        except ValueError:
            raise ScheduleError(f"line {lineno}: bad timestamp {m.group('when')!r}") from None
        percent = int(m.group("percent"))
        if percent > 100:
            raise ScheduleError(f"line {lineno}: percentage above 100")
        timeline.set(when, percent)
    return timeline
