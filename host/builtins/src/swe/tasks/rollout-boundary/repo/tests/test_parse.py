from datetime import datetime

import pytest

from rollout import ScheduleError, parse_schedule


def test_parse_schedule():
    t = parse_schedule("""
        # launch plan
        2024-05-01T00:00  10%
        2024-05-08T00:00  50%   # halfway
    """)
    assert t.changes() == [(datetime(2024, 5, 1), 10), (datetime(2024, 5, 8), 50)]


def test_parse_errors():
    for bad in ["2024-05-01 10", "yesterday 10%", "2024-05-01T00:00 101%"]:
        with pytest.raises(ScheduleError):
            parse_schedule(bad)
