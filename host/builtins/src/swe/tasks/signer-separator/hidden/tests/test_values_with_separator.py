import pytest

from signet import BadSignature, Signer, TimestampSigner

NOW = 1_700_000_000


def test_dotted_value_roundtrip():
    signer = Signer("secret-key")
    for value in ["release-1.2.3", "a.b", ".", "trailing."]:
        assert signer.unsign(signer.sign(value)) == value
    token = signer.sign("release-1.2.3")
    with pytest.raises(BadSignature):
        signer.unsign(token.replace("1.2.3", "1.2.4"))


def test_custom_separator_in_value():
    signer = Signer("secret-key", sep="~")
    assert signer.unsign(signer.sign("home/~jane/notes")) == "home/~jane/notes"


def test_timestamp_signer_dotted_value():
    ts = TimestampSigner("secret-key", clock=lambda: NOW)
    token = ts.sign("jane.doe@example.org")
    assert ts.unsign(token, max_age=60, now=NOW + 10) == "jane.doe@example.org"
    assert ts.unsign_with_timestamp(token) == ("jane.doe@example.org", NOW)
