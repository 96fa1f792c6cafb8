from verspec import describe


def test_describe():
    assert describe("0.3.1") == "0.3.1 (initial development)"
    assert describe("2.0.0-rc.1+sha.5") == "2.0.0 (stable), pre-release rc.1, build sha.5"
