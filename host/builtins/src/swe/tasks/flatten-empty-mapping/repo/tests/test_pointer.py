import pytest

from nestkit import PointerError, resolve

DOC = {"a": [{"b": 1}, {"c/d": 2, "e~f": 3}], "": 4}


def test_resolve():
    assert resolve(DOC, "") is DOC
    assert resolve(DOC, "/a/0/b") == 1
    assert resolve(DOC, "/") == 4


def test_escaping():
    assert resolve(DOC, "/a/1/c~1d") == 2
    assert resolve(DOC, "/a/1/e~0f") == 3


def test_missing():
    for bad in ("/x", "/a/5", "/a/0/b/c", "a"):
        with pytest.raises(PointerError):
            resolve(DOC, bad)
