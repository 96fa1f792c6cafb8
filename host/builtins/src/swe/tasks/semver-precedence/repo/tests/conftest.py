import pytest

from verspec import Version


@pytest.fixture
def releases():
    """A shuffled list of release versions."""
    return ["1.10.0", "0.9.1", "1.2.0", "2.0.0", "1.2.10", "1.2.9", "0.10.0"]


@pytest.fixture
def parse():
    return Version.parse
