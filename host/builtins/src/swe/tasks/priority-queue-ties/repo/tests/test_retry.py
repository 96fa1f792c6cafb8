import pytest

from jobq.retry import backoff


def test_backoff_grows():
    assert [backoff(n) for n in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 4.0]
    assert backoff(20) == 30.0


def test_backoff_rejects_zero():
    with pytest.raises(ValueError):
        backoff(0)
