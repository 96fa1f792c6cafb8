from ttlstore import RateLimiter


def test_allows_up_to_limit(clock):
    limiter = RateLimiter(limit=3, window=60, clock=clock)
    assert [limiter.hit("ip") for _ in range(4)] == [True, True, True, False]
    assert limiter.hit("other")


def test_window_resets(clock):
    limiter = RateLimiter(limit=1, window=60, clock=clock)
    assert limiter.hit("ip")
    assert not limiter.hit("ip")
    clock.advance(60)
    assert limiter.hit("ip")
    limiter.prune()
