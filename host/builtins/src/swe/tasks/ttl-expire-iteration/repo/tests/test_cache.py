import pytest

from ttlstore import TTLCache


def test_set_and_get(clock):
    cache = TTLCache(10, clock)
    cache.set("a", 1)
    assert cache.get("a") == 1
    assert cache.get("b", "dflt") == "dflt"
    assert "a" in cache and len(cache) == 1


def test_get_after_expiry(clock):
    cache = TTLCache(10, clock)
    cache.set("a", 1)
    clock.advance(11)
    assert cache.get("a") is None
    assert len(cache) == 0


def test_expire_with_nothing_expired(clock):
    cache = TTLCache(10, clock)
    cache.set("a", 1)
    cache.set("b", 2, ttl=100)
    clock.advance(5)
    assert cache.expire() == 0
    assert sorted(cache.items()) == [("a", 1), ("b", 2)]


def test_touch_extends_lifetime(clock):
    cache = TTLCache(10, clock)
    cache.set("a", 1)
    clock.advance(8)
    assert cache.touch("a")
    clock.advance(8)
    assert cache.get("a") == 1
    assert not cache.touch("missing")


def test_invalid_ttl(clock):
    with pytest.raises(ValueError):
        TTLCache(0, clock)
