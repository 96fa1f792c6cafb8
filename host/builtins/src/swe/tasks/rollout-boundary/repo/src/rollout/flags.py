"""Feature flags."""

from datetime import datetime
from typing import Iterable, List

from .bucket import bucket
from .timeline import Timeline


class Flag:
    def __init__(self, name: str, schedule: Timeline) -> None:
        self.name = name
        self.schedule = schedule

    def percent_at(self, when: datetime) -> int:
        return self.schedule.value_at(when)

    def is_enabled(self, user: str, when: datetime) -> bool:
        return bucket(self.name, user) < self.percent_at(when)

    def enabled_users(self, users: Iterable[str], when: datetime) -> List[str]:
        return [u for u in users if self.is_enabled(u, when)]
