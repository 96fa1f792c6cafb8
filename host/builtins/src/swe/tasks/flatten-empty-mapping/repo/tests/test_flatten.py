import pytest

from nestkit import flatten, unflatten


def test_flatten_nested():
    data = {"server": {"host": "h", "port": 80}, "debug": False}
    assert flatten(data) == {"server.host": "h", "server.port": 80, "debug": False}


def test_custom_separator():
    assert flatten({"a": {"b": {"c": 1}}}, sep="/") == {"a/b/c": 1}


def test_lists_are_leaves():
    assert flatten({"a": [1, {"b": 2}]}) == {"a": [1, {"b": 2}]}


def test_unflatten():
    assert unflatten({"a.b": 1, "a.c": 2, "d": 3}) == {"a": {"b": 1, "c": 2}, "d": 3}


def test_unflatten_conflict():
    with pytest.raises(ValueError):
        unflatten({"a": 1, "a.b": 2})


def test_non_string_keys():
    with pytest.raises(TypeError):
        flatten({1: "x"})
