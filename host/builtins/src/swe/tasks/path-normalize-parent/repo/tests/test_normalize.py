from pathkit import normalize


def test_collapses_separators_and_dots():
    assert normalize("/a/./b//c/") == "/a/b/c"
    assert normalize("a//b/.") == "a/b"


def test_resolves_inner_parent_refs():
    assert normalize("a/b/../c") == "a/c"
    assert normalize("/srv/data/raw/../../logs") == "/srv/logs"


def test_absolute_root_parent():
    assert normalize("/../x") == "/x"
    assert normalize("/..") == "/"


def test_empty_and_dot():
    assert normalize("") == "."
    assert normalize(".") == "."
    assert normalize("a/..") == "."
