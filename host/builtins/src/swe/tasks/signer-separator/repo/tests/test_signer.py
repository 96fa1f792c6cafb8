import pytest

from signet import BadSignature, Signer


def test_roundtrip(signer):
    token = signer.sign("user-42")
    assert token.startswith("user-42.")
    assert signer.unsign(token) == "user-42"


def test_tampered_value_rejected(signer):
    token = signer.sign("user-42")
    with pytest.raises(BadSignature):
        signer.unsign("user-43" + token[len("user-42"):])


def test_wrong_key_rejected(signer):
    with pytest.raises(BadSignature):
        Signer("other-key").unsign(signer.sign("user-42"))


def test_missing_separator(signer):
    with pytest.raises(BadSignature):
        signer.unsign("nodothere")


def test_salt_changes_signature():
    assert Signer("k", salt="a").sign("v") != Signer("k", salt="b").sign("v")


def test_bad_separator():
    with pytest.raises(ValueError):
        Signer("k", sep="-")
