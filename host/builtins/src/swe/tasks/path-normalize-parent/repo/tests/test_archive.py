import pytest

from pathkit import UnsafePathError, plan_extraction


def test_plan_extraction():
    assert plan_extraction(["README", "src/a.py"], "/tmp/out") == {
        "README": "/tmp/out/README",
        "src/a.py": "/tmp/out/src/a.py",
    }


def test_absolute_member_rejected():
    with pytest.raises(UnsafePathError):
        plan_extraction(["/etc/passwd"], "/tmp/out")


def test_inner_parent_ref_allowed():
    assert plan_extraction(["a/../b.txt"], "/tmp/out") == {"a/../b.txt": "/tmp/out/b.txt"}
