import pytest

from htmlkit import Element


@pytest.fixture
def make():
    """Build an element with explicit (fresh) attrs and children."""

    def build(tag, attrs=None, *children):
        return Element(tag, dict(attrs or {}), list(children))

    return build
