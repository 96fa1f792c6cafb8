"""The :func:`lru_cached` decorator."""

import functools

from .lru import LRUCache

_MISS = object()


def _make_key(args, kwargs):
    if not kwargs:
        return args
    return args + (_MISS,) + tuple(sorted(kwargs.items()))


def lru_cached(maxsize=128):
    """Memoise a function of hashable arguments in an :class:`LRUCache`."""

    def decorate(func):
        cache = LRUCache(maxsize)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            key = _make_key(args, kwargs)
            result = cache.get(key, _MISS)
            if result is _MISS:
                result = func(*args, **kwargs)
                cache.put(key, result)
            return result

        wrapper.cache = cache
        wrapper.cache_info = cache.info
        wrapper.cache_clear = cache.clear
        return wrapper

    return decorate
