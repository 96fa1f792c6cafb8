import pytest

from confkit import Field, Schema, SchemaError, parse


def test_schema_defaults_and_types(sample):
    schema = Schema({
        "server": {
            "port": Field("int"),
            "debug": Field("bool"),
            "workers": Field("int", default=4),
            "timeout": Field("duration"),
        }
    })
    assert schema.validate(parse(sample)) == {
        "server": {"port": 8080, "debug": True, "workers": 4, "timeout": 300}
    }


def test_schema_errors(sample):
    schema = Schema({
        "server": {"host": Field("int"), "mode": Field(required=True)},
        "paths": {"root": Field(choices=["/opt"])},
    })
    with pytest.raises(SchemaError) as info:
        schema.validate(parse(sample))
    assert info.value.problems == [
        "[server] host: expected int, got '0.0.0.0'",
        "[server] mode: missing",
        "[paths] root: '/srv/app' not in ['/opt']",
    ]


def test_unknown_field_type():
    with pytest.raises(ValueError):
        Field("date")
