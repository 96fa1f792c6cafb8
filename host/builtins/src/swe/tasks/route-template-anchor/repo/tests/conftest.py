import pytest

from routekit import Router


@pytest.fixture
def router():
    r = Router()
    r.add("/users/<int:user_id>", "show_user")
    r.add("/users", "list_users", methods=["GET", "POST"])
    r.add("/blog/<slug:post>", "show_post")
    r.add("/files/<path:name>", "download", methods=["GET", "HEAD"])
    return r
