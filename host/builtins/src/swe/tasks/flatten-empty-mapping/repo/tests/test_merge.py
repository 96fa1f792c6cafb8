from nestkit import deep_merge


def test_deep_merge():
    base = {"db": {"host": "localhost", "port": 5432}, "debug": False}
    override = {"db": {"port": 6543}, "debug": True}
    assert deep_merge(base, override) == {"db": {"host": "localhost", "port": 6543}, "debug": True}


def test_merge_does_not_mutate():
    base = {"db": {"opts": {"a": 1}}}
    merged = deep_merge(base, {"db": {"opts": {"b": 2}}})
    merged["db"]["opts"]["c"] = 3
    assert base == {"db": {"opts": {"a": 1}}}
