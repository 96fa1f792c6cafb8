from datetime import date

import pytest


@pytest.fixture
def d():
    """Shorthand: d(2023, 1, 31) -> date(2023, 1, 31)."""
    return date
