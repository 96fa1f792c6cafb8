import pytest

from signet import Signer, TimestampSigner

NOW = 1_700_000_000


@pytest.fixture
def signer():
    return Signer("secret-key")


@pytest.fixture
def timed():
    return TimestampSigner("secret-key", clock=lambda: NOW)


@pytest.fixture
def now():
    return NOW
