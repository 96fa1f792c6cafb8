import pytest

from routekit import Match, NoMatch, Router, Template


def test_longer_path_not_matched_by_shorter_template():
    router = Router()
    router.add("/users/<int:user_id>", "show_user")
    router.add("/users/<int:user_id>/delete", "delete_user")
    assert router.match("/users/12/delete") == Match("delete_user", {"user_id": 12})
    assert router.match("/users/12") == Match("show_user", {"user_id": 12})
    assert Template("/about").match("/about/team") is None


def test_partial_segment_rejected():
    router = Router()
    router.add("/users/<int:user_id>", "show_user")
    router.add("/users", "list_users")
    with pytest.raises(NoMatch):
        router.match("/users/12abc")
    assert router.match("/users") == Match("list_users", {})
    assert Template("/blog/<slug:post>").match("/blog/ok-Then") is None


def test_trailing_newline_rejected():
    assert Template("/users/<int:user_id>").match("/users/12\n") is None
    assert Template("/").match("/\n") is None
