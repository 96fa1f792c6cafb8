import statistics

import pytest

from statkit import median, percentile, quartiles, summary


def test_median_even_length_ints():
    assert median([1, 2, 3, 4]) == 2.5
    assert median([1, 2]) == 1.5
    assert median([-3, -2]) == -2.5


def test_percentile_interpolates_ints():
    assert percentile([10, 20, 30, 40], 50) == 25.0
    assert percentile([1, 2, 3, 4, 5], 90) == pytest.approx(4.6)
    assert percentile([0, 10], 33) == pytest.approx(3.3)


def test_quartiles_match_statistics_module():
    for data in ([1, 2, 3, 4, 5, 6], [3, 1, 4, 1, 5, 9, 2, 6], list(range(11))):
        expected = statistics.quantiles(data, n=4, method="inclusive")
        assert quartiles(data) == pytest.approx(tuple(expected))
    assert quartiles([1, 2, 3, 4, 5, 6]) == pytest.approx((2.25, 3.5, 4.75))


def test_summary_of_ints():
    result = summary([1, 2, 3, 4])
    assert result["median"] == 2.5
    assert result["q1"] == pytest.approx(1.75)
    assert result["q3"] == pytest.approx(3.25)
