import pytest

from confkit import MissingError, parse


def test_typed_getters(sample):
    config = parse(sample)
    assert config.getint("server", "port") == 8080
    assert config.getbool("server", "debug") is True
    assert config.getduration("server", "timeout") == 300
    assert config.getlist("server", "tags") == ["web", "api", "internal"]
    assert config.getfloat("server", "ratio", 0.5) == 0.5


def test_missing(sample):
    config = parse(sample)
    with pytest.raises(MissingError):
        config.get("server", "nope")
    with pytest.raises(KeyError):
        config.section("nope")
    assert config.get("server", "nope", None) is None
