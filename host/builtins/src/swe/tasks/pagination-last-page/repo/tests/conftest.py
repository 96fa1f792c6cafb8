import pytest

from shelf import Request, create_app, seed_store


@pytest.fixture
def store():
    return seed_store(20)


@pytest.fixture
def app(store):
    return create_app(store)


@pytest.fixture
def get(app):
    def do(url):
        return app.handle(Request.from_url(url))

    return do
