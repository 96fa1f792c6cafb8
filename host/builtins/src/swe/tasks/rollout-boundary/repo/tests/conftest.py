from datetime import datetime

import pytest

from rollout import Timeline


@pytest.fixture
def timeline():
    t = Timeline(default=0)
    t.set(datetime(2024, 5, 1, 12, 0), 25)
    t.set(datetime(2024, 5, 2, 12, 0), 100)
    return t


@pytest.fixture
def users():
    return [f"user-{i}" for i in range(1000)]
