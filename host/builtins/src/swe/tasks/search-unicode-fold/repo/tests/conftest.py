import pytest

from findtext import Index


@pytest.fixture
def index():
    idx = Index()
    idx.add("recipe", "The Crème Brûlée recipe, with vanilla")
    idx.add("news", "Vanilla prices rise again")
    idx.add("howto", "How to caramelise sugar")
    return idx
