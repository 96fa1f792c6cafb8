import pytest

from verspec import InvalidSpecifier, Specifier


def test_comparison_operators():
    assert Specifier(">=1.2").contains("1.2.0")
    assert not Specifier(">1.2").contains("1.2.0")
    assert Specifier("<2").contains("1.99.0")
    assert Specifier("!=1.5.0").contains("1.5.1")
    assert Specifier("1.5.0").contains("1.5.0")


def test_prerelease_excluded_by_default():
    assert not Specifier(">=1.0").contains("1.1.0-beta")
    assert Specifier(">=1.0").contains("1.1.0-beta", include_prerelease=True)


def test_invalid_specifier():
    with pytest.raises(InvalidSpecifier):
        Specifier(">=x.y")
