import pytest

from routekit import RoutingError, TemplateError


def test_build_url(router):
    assert router.url_for("show_user", user_id=5) == "/users/5"
    assert router.url_for("download", name="a b/c.txt") == "/files/a%20b/c.txt"
    assert router.url_for("show_post", post="hello-world") == "/blog/hello-world"


def test_build_url_missing_param(router):
    with pytest.raises(TemplateError):
        router.url_for("show_user")
    with pytest.raises(RoutingError):
        router.url_for("nope")


def test_build_url_rejects_bad_int(router):
    with pytest.raises(ValueError):
        router.url_for("show_user", user_id=-1)
