from pathkit import join, split_ext


def test_join():
    assert join("/srv", "data", "x.csv") == "/srv/data/x.csv"
    assert join("a/", "b/") == "a/b"
    assert join("", "a") == "a"


def test_join_absolute_resets():
    assert join("/srv", "/etc", "hosts") == "/etc/hosts"


def test_split_ext():
    assert split_ext("dir/report.tar.gz") == ("dir/report.tar", ".gz")
    assert split_ext(".bashrc") == (".bashrc", "")
    assert split_ext("/x/README") == ("/x/README", "")
    assert split_ext("/notes.txt") == ("/notes", ".txt")
