from rollout import bucket


def test_bucket_is_stable():
    assert bucket("new-search", "user-42") == bucket("new-search", "user-42")
    assert bucket("new-search", "user-42") == 93


def test_bucket_range(users):
    values = [bucket("f", u) for u in users]
    assert min(values) >= 0 and max(values) <= 99
    assert len(set(values)) == 100
