import pytest

from htmlkit import Element


def test_explicit_children(make):
    el = make("div", None, "a", make("b", None, "c"))
    assert len(el.children) == 2
    el.append("d")
    assert el.children[-1] == "d"


def test_set_and_get_attribute(make):
    el = make("div", {"id": "x"})
    el.set("hidden").add_class("a").add_class("b").add_class("a")
    assert el.get("id") == "x"
    assert el.get("hidden") is True
    assert el.get("class") == "a b"
    assert el.get("missing", 3) == 3


def test_void_element_rejects_children(make):
    with pytest.raises(ValueError):
        make("br", None, "text")
    with pytest.raises(ValueError):
        make("img").append("x")


def test_invalid_tag():
    with pytest.raises(ValueError):
        Element("di v", {}, [])
