from verspec import latest, max_satisfying, sort_versions


def test_sort_releases(releases):
    assert sort_versions(releases) == [
        "0.9.1", "0.10.0", "1.2.0", "1.2.9", "1.2.10", "1.10.0", "2.0.0",
    ]
    assert sort_versions(releases, reverse=True)[0] == "2.0.0"


def test_max_satisfying(releases):
    assert max_satisfying(releases, "^1.2") == "1.10.0"
    assert max_satisfying(releases, "~1.2") == "1.2.10"
    assert max_satisfying(releases, ">=3") is None


def test_latest_skips_prereleases():
    assert latest(["1.0.0", "1.1.0-beta"]) == "1.0.0"
    assert latest([]) is None
