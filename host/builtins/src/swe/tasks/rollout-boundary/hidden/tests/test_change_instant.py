from datetime import datetime, timedelta

from rollout import Flag, Timeline, parse_schedule


def test_value_applies_from_its_time(timeline):
    assert timeline.value_at(datetime(2024, 5, 1, 12, 0)) == 25
    assert timeline.value_at(datetime(2024, 5, 1, 11, 59, 59)) == 0
    assert timeline.value_at(datetime(2024, 5, 2, 12, 0)) == 100
    single = Timeline(default="old")
    single.set(datetime(2024, 1, 1), "new")
    assert single.value_at(datetime(2024, 1, 1)) == "new"


def test_flag_at_rollout_instant(users):
    midnight = datetime(2024, 5, 15)
    flag = Flag("search", parse_schedule("2024-05-01T00:00 10%\n2024-05-15T00:00 100%"))
    assert flag.percent_at(midnight) == 100
    assert flag.enabled_users(users, midnight) == users
    assert flag.percent_at(midnight - timedelta(microseconds=1)) == 10


def test_schedule_text_boundaries():
    t = parse_schedule("2024-05-01T00:00 10%\n2024-05-08T00:00 50%\n2024-05-15T00:00 100%")
    hits = [t.value_at(datetime(2024, 5, day)) for day in (1, 7, 8, 14, 15)]
    assert hits == [10, 10, 50, 50, 100]
