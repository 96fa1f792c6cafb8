from verspec import Version, latest, max_satisfying, sort_versions


def test_release_outranks_its_prerelease():
    assert Version.parse("1.0.0-alpha") < Version.parse("1.0.0")
    assert Version.parse("1.0.0") > Version.parse("1.0.0-rc.1")
    assert Version.parse("1.0.0-rc.1") > Version.parse("0.9.9")
    assert max(Version.parse(v) for v in ["1.0.0-rc.1", "1.0.0"]) == "1.0.0"


def test_numeric_identifiers_compare_as_numbers():
    assert Version.parse("1.0.0-alpha.2") < Version.parse("1.0.0-alpha.10")
    assert sort_versions(["1.0.0", "1.0.0-rc.1", "1.0.0-rc.2", "1.0.0-rc.10"]) == [
        "1.0.0-rc.1", "1.0.0-rc.2", "1.0.0-rc.10", "1.0.0",
    ]
    # numeric identifiers still rank below alphanumeric ones
    assert Version.parse("1.0.0-alpha.99") < Version.parse("1.0.0-alpha.beta")


def test_semver_spec_example_chain():
    chain = [
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-beta",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0-rc.1",
        "1.0.0",
    ]
    shuffled = chain[3:] + chain[:3]
    assert sort_versions(shuffled) == chain
    for low, high in zip(chain, chain[1:]):
        assert Version.parse(low) < Version.parse(high)


def test_latest_prefers_final_release():
    assert latest(["1.0.0-rc.1", "1.0.0", "1.0.0-beta.3"], include_prerelease=True) == "1.0.0"
    assert max_satisfying(
        ["2.0.0-rc.2", "2.0.0-rc.10", "1.9.0"], ">=1.0", include_prerelease=True
    ) == "2.0.0-rc.10"
