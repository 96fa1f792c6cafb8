import pytest

from statkit import summary


def test_summary_floats():
    result = summary([1.0, 2.0, 3.0, 4.0, 5.0])
    assert result["median"] == 3.0
    assert (result["q1"], result["q3"]) == (2.0, 4.0)
    assert result["stdev"] == pytest.approx(1.5811388)
    assert (result["min"], result["max"], result["count"]) == (1.0, 5.0, 5)
