import pytest

from signet import BadSignature, Serializer


def test_dumps_loads():
    s = Serializer("secret-key")
    obj = {"id": 42, "roles": ["admin", "dev"], "name": "Zoë"}
    assert s.loads(s.dumps(obj)) == obj


def test_loads_tampered():
    s = Serializer("secret-key")
    token = s.dumps({"id": 42})
    with pytest.raises(BadSignature):
        s.loads("x" + token)
