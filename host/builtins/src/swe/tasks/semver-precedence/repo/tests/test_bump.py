from verspec import bump_major, bump_minor, bump_patch, bump_prerelease


def test_bump_major_minor():
    assert str(bump_major("1.4.2")) == "2.0.0"
    assert str(bump_minor("1.4.2")) == "1.5.0"


def test_bump_patch_drops_prerelease():
    assert str(bump_patch("1.4.2")) == "1.4.3"
    assert str(bump_patch("1.4.3-rc.2")) == "1.4.3"


def test_bump_prerelease():
    assert str(bump_prerelease("1.2.3")) == "1.2.4-rc.1"
    assert str(bump_prerelease("1.2.4-rc.1")) == "1.2.4-rc.2"
    assert str(bump_prerelease("1.2.4-beta")) == "1.2.4-beta.1"
    assert str(bump_prerelease("1.2.3", tag="alpha")) == "1.2.4-alpha.1"
