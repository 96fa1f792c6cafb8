from nestkit import diff, flatten, unflatten


def test_empty_mapping_is_a_leaf():
    config = {"server": {"host": "0.0.0.0", "tls": {}}, "plugins": {}}
    assert flatten(config) == {"server.host": "0.0.0.0", "server.tls": {}, "plugins": {}}
    assert flatten({}) == {}


def test_roundtrip_keeps_empty_sections():
    samples = [
        {"server": {"host": "0.0.0.0", "tls": {}}, "plugins": {}},
        {"a": {"b": {"c": {}}}},
        {"a": {}, "b": [], "c": {"d": 1}},
    ]
    for sample in samples:
        assert unflatten(flatten(sample)) == sample
        assert unflatten(flatten(sample, sep="/"), sep="/") == sample


def test_diff_sees_empty_section():
    assert diff({"plugins": {}}, {}) == {"added": {}, "removed": {"plugins": {}}, "changed": {}}
    assert diff({"a": {"b": {}}}, {"a": {"b": {"x": 1}}})["added"] == {"a.b.x": 1}
    assert diff({"a": {"b": {}}}, {"a": {"b": {"x": 1}}})["removed"] == {"a.b": {}}
