import pytest

from routekit import Match, MethodNotAllowed, NoMatch


def test_match_endpoint(router):
    assert router.match("/users/7") == Match("show_user", {"user_id": 7})
    assert router.match("/users", "post") == Match("list_users", {})


def test_no_match(router):
    with pytest.raises(NoMatch):
        router.match("/nothing")
    with pytest.raises(NoMatch):
        router.match("/blog/Not_A_Slug")


def test_methods(router):
    with pytest.raises(MethodNotAllowed) as info:
        router.match("/files/a.txt", "DELETE")
    assert info.value.allowed == {"GET", "HEAD"}
