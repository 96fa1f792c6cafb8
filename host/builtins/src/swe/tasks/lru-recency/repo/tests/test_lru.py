import pytest

from memo import LRUCache


def test_put_and_get():
    cache = LRUCache(3)
    cache.put("a", 1)
    assert cache.get("a") == 1
    assert cache.get("zzz") is None
    assert cache.get("zzz", 5) == 5
    assert "a" in cache and len(cache) == 1


def test_evicts_oldest_insert():
    cache = LRUCache(2)
    for key in "abc":
        cache.put(key, key.upper())
    assert list(cache.keys()) == ["b", "c"]
    assert "a" not in cache


def test_capacity_must_be_positive():
    for bad in (0, -1, 2.5):
        with pytest.raises(ValueError):
            LRUCache(bad)


def test_stats_count_hits_and_misses():
    cache = LRUCache(2)
    cache.put("x", 1)
    cache.get("x")
    cache.get("y")
    info = cache.info()
    assert (info.hits, info.misses, info.size, info.capacity) == (1, 1, 1, 2)
    assert info.hit_rate == 0.5


def test_overwrite_keeps_size():
    cache = LRUCache(2)
    cache.put("x", 1)
    cache.put("x", 2)
    assert len(cache) == 1 and cache.get("x") == 2
