from memo import LRUCache, lru_cached


def test_get_refreshes_entry():
    cache = LRUCache(capacity=2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1
    cache.put("c", 3)
    assert cache.get("a") == 1
    assert cache.get("b") is None
    assert list(cache.keys()) == ["c", "a"]


def test_put_existing_key_refreshes_entry():
    cache = LRUCache(capacity=2)
    cache.put("a", 1)
    cache.put("b", 2)
    cache.put("a", 10)
    cache.put("c", 3)
    assert list(cache.keys()) == ["a", "c"]
    assert cache.get("a") == 10


def test_decorator_keeps_hot_argument():
    calls = []

    @lru_cached(maxsize=2)
    def load(name):
        calls.append(name)
        return name.upper()

    for other in ["x", "y", "z", "w"]:
        assert load("hot") == "HOT"
        assert load(other) == other.upper()
    assert calls.count("hot") == 1
