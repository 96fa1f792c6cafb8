import math

import pytest


def test_tfidf_rare_word_scores_higher(pets):
    weights = pets.tfidf("a")
    assert weights["cat"] == pytest.approx(math.log(3) / 3)
    assert weights["sat"] == pytest.approx(math.log(1.5) / 3)
    assert weights["cat"] > weights["sat"]
