import pytest

from shelf.errors import BadRequest
from shelf.validation import parse_positive_int


def test_parse_positive_int():
    assert parse_positive_int(None, "page", 1) == 1
    assert parse_positive_int("7", "page", 1) == 7


def test_rejects_bad_values():
    for bad in ("0", "-3", "x", "2.5"):
        with pytest.raises(BadRequest):
            parse_positive_int(bad, "page", 1)
    with pytest.raises(BadRequest):
        parse_positive_int("51", "per_page", 10, maximum=50)
