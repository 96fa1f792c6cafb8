from verspec import SpecifierSet


def test_set_filters(releases):
    spec = SpecifierSet(">=1.2,<2,!=1.2.9")
    assert spec.filter(releases) == ["1.10.0", "1.2.0", "1.2.10"]


def test_empty_set_matches_releases():
    assert SpecifierSet("").contains("0.0.1")


def test_str():
    assert str(SpecifierSet(">=1.2, <2")) == ">=1.2.0,<2.0.0"
