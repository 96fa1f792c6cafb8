"""Time-based feature flag rollouts."""

from .bucket import bucket
from .flags import Flag
from .parse import ScheduleError, parse_schedule
from .timeline import Timeline

__all__ = ["Flag", "ScheduleError", "Timeline", "bucket", "parse_schedule"]
