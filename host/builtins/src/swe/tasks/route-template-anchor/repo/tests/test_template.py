import pytest

from routekit import Template, TemplateError


def test_static_template():
    assert Template("/").match("/") == {}
    assert Template("/about").match("/about") == {}
    assert Template("/about").match("/contact") is None


def test_converters_applied():
    assert Template("/u/<int:id>/<name>").match("/u/42/bob") == {"id": 42, "name": "bob"}
    assert Template("/u/<int:id>").match("/u/x") is None


def test_unknown_converter():
    with pytest.raises(TemplateError):
        Template("/x/<uuid:id>")


def test_duplicate_parameter():
    with pytest.raises(TemplateError):
        Template("/<a>/<a>")


def test_regex_characters_escaped():
    assert Template("/v1.0/items").match("/v1.0/items") == {}
    assert Template("/v1.0/items").match("/v1x0/items") is None


def test_must_start_with_slash():
    with pytest.raises(TemplateError):
        Template("users")
