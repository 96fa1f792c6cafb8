from datetime import datetime

from rollout import Timeline


def test_default_before_first_change(timeline):
    assert timeline.value_at(datetime(2024, 4, 30)) == 0
    assert Timeline(default="off").value_at(datetime(2024, 1, 1)) == "off"


def test_values_between_changes(timeline):
    assert timeline.value_at(datetime(2024, 5, 1, 18, 0)) == 25
    assert timeline.value_at(datetime(2024, 5, 3)) == 100


def test_set_replaces_same_time(timeline):
    timeline.set(datetime(2024, 5, 1, 12, 0), 30)
    assert len(timeline) == 2
    assert timeline.value_at(datetime(2024, 5, 1, 13, 0)) == 30


def test_changes_listing():
    t = Timeline(default=0)
    t.set(datetime(2024, 6, 1), 2)
    t.set(datetime(2024, 5, 1), 1)
    assert t.changes() == [(datetime(2024, 5, 1), 1), (datetime(2024, 6, 1), 2)]
