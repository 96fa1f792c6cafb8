from verspec import SpecifierSet, caret_range


def test_caret_major():
    assert str(caret_range("^1.2.3")) == ">=1.2.3,<2.0.0"
    assert SpecifierSet("^1.2").contains("1.9.9")
    assert not SpecifierSet("^1.2").contains("2.0.0")


def test_caret_zero_major():
    assert str(caret_range("^0.2.3")) == ">=0.2.3,<0.3.0"
    assert str(caret_range("^0.0.3")) == ">=0.0.3,<0.0.4"
