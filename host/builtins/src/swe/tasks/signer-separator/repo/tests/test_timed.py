import pytest

from signet import SignatureExpired


def test_fresh_token_accepted(timed, now):
    token = timed.sign("reset")
    assert timed.unsign(token, max_age=60, now=now + 30) == "reset"


def test_expired_token(timed, now):
    token = timed.sign("reset", now=now)
    with pytest.raises(SignatureExpired) as info:
        timed.unsign(token, max_age=60, now=now + 61)
    assert info.value.timestamp == now


def test_timestamp_is_returned(timed, now):
    token = timed.sign("reset", now=now - 5)
    assert timed.unsign_with_timestamp(token) == ("reset", now - 5)
