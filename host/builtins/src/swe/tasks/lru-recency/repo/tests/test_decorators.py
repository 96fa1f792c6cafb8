from memo import lru_cached


def test_results_are_cached():
    calls = []

    @lru_cached(maxsize=4)
    def square(n):
        calls.append(n)
        return n * n

    assert [square(3), square(3), square(4)] == [9, 9, 16]
    assert calls == [3, 4]
    assert square.cache_info().hits == 1
    assert square.__name__ == "square"


def test_cache_clear():
    @lru_cached()
    def ident(x):
        return x

    ident(1)
    ident.cache_clear()
    assert ident.cache_info().size == 0


def test_kwargs_are_part_of_key():
    @lru_cached()
    def scale(x, factor=1):
        return x * factor

    assert scale(2) == 2
    assert scale(2, factor=3) == 6
