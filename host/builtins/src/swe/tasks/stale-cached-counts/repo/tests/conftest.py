import pytest

from wordbag import Corpus, Document


@pytest.fixture
def pets():
    return Corpus([
        Document("a", "The cat sat on the mat"),
        Document("b", "The dog sat on the log"),
        Document("c", "Cats and dogs"),
    ])
