from ttlstore import SessionManager, TTLCache


def test_expire_removes_expired_entries(clock):
    cache = TTLCache(10, clock)
    cache.set("a", 1)
    cache.set("b", 2)
    clock.advance(60)
    assert cache.expire() == 2
    assert len(cache) == 0
    assert cache.expire() == 0


def test_expire_keeps_live_entries(clock):
    cache = TTLCache(10, clock)
    for i in range(20):
        cache.set(i, i, ttl=5 if i % 2 else 50)
    clock.advance(20)
    assert cache.expire() == 10
    assert sorted(k for k, _ in cache.items()) == list(range(0, 20, 2))


def test_entry_gone_at_exact_expiry(clock):
    cache = TTLCache(10, clock)
    cache.set("a", 1)
    clock.advance(10)
    assert cache.get("a", "gone") == "gone"
    assert "a" not in cache
    cache.set("b", 2)
    clock.advance(10)
    assert len(cache) == 0


def test_session_cleanup(clock):
    manager = SessionManager(ttl=60, clock=clock)
    old = manager.login("ada")
    clock.advance(50)
    fresh = manager.login("grace")
    clock.advance(20)
    assert manager.cleanup() == 1
    assert manager.lookup(old.id) is None
    assert manager.lookup(fresh.id) == fresh
    assert manager.active() == 1
