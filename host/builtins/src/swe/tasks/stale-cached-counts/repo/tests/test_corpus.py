import pytest

from wordbag import Document


def test_vocabulary(pets):
    assert pets.vocabulary() == ["cat", "cats", "dog", "dogs", "log", "mat", "sat"]


def test_document_frequency(pets):
    assert pets.document_frequency("sat") == 2
    assert pets.document_frequency("Cats") == 1
    assert pets.document_frequency("zebra") == 0


def test_duplicate_name_rejected(pets):
    with pytest.raises(ValueError):
        pets.add(Document("a", "again"))
