import pytest

from pathkit import relative_to


def test_relative_to_descendant():
    assert relative_to("/srv/data/x.csv", "/srv") == "data/x.csv"
    assert relative_to("/srv", "/srv") == "."


def test_mixing_rejected():
    with pytest.raises(ValueError):
        relative_to("/a", "b")
