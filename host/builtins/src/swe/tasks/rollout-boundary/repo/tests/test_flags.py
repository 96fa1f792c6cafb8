from datetime import datetime

from rollout import Flag, Timeline


def test_flag_off_then_on(timeline):
    flag = Flag("search", timeline)
    assert not flag.is_enabled("user-1", datetime(2024, 4, 1))
    assert flag.is_enabled("user-1", datetime(2024, 6, 1))


def test_partial_rollout_fraction(timeline, users):
    flag = Flag("search", timeline)
    enabled = flag.enabled_users(users, datetime(2024, 5, 1, 20, 0))
    assert 200 <= len(enabled) <= 300
    assert flag.percent_at(datetime(2024, 5, 1, 20, 0)) == 25
