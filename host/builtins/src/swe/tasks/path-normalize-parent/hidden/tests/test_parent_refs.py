import pytest

from pathkit import UnsafePathError, join, normalize, plan_extraction, relative_to


def test_leading_parent_refs_kept():
    assert normalize("../a") == "../a"
    assert normalize("../../a/./b") == "../../a/b"
    assert normalize("..") == ".."
    assert join("..", "x") == "../x"


def test_parent_refs_past_start():
    assert normalize("a/../../b") == "../b"
    assert normalize("docs/../../notes.txt") == "../notes.txt"
    assert normalize("a/b/../../..") == ".."
    assert normalize("/a/../../b") == "/b"


def test_extraction_rejects_escaping_members():
    for name in ["../../home/me/.profile", "docs/../../x", ".."]:
        with pytest.raises(UnsafePathError):
            plan_extraction(["README", name], "/srv/unpacked")


def test_relative_to_sibling():
    assert relative_to("/a/b/c", "/a/x") == "../b/c"
    assert relative_to("a/b", "a/c/d") == "../../b"
