from verspec import Version


def test_parse_full(parse):
    v = parse("1.4.0-beta.2+build.7")
    assert v.release == (1, 4, 0)
    assert v.prerelease == ("beta", "2")
    assert v.build == ("build", "7")
    assert str(v) == "1.4.0-beta.2+build.7"


def test_release_ordering(parse):
    assert parse("1.2.10") > parse("1.2.9")
    assert parse("1.10.0") > parse("1.9.0")
    assert parse("2.0.0") > parse("1.99.99")
    assert parse("0.0.1") < "0.1.0"


def test_build_metadata_ignored(parse):
    assert parse("1.0.0+a") == parse("1.0.0+b")
    assert len({parse("1.0.0+a"), parse("1.0.0")}) == 1


def test_prerelease_flag(parse):
    assert parse("1.0.0-rc.1").is_prerelease
    assert not parse("1.0.0").is_prerelease


def test_immutable():
    v = Version(1, 2, 3)
    try:
        v.major = 5
    except AttributeError:
        pass
    else:
        raise AssertionError("Version should be immutable")


def test_repr():
    assert repr(Version(1, 2, 3, ["alpha"])) == "Version('1.2.3-alpha')"
