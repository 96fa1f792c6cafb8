import pytest

from mdgen import Heading


def test_heading_levels():
    assert Heading("Intro", 1).render() == "# Intro"
    assert Heading("snake_case", 3).render() == "### snake\\_case"
    with pytest.raises(ValueError):
        Heading("x", 7)
