from nestkit import diff


def test_diff_reports_changes():
    old = {"server": {"host": "a", "port": 80}, "debug": True}
    new = {"server": {"host": "b", "workers": 4}, "debug": True}
    assert diff(old, new) == {
        "added": {"server.workers": 4},
        "removed": {"server.port": 80},
        "changed": {"server.host": ("a", "b")},
    }
