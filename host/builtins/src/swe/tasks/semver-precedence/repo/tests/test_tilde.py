from verspec import tilde_range


def test_tilde_range():
    assert str(tilde_range("~1.2.3")) == ">=1.2.3,<1.3.0"
    assert tilde_range("~1.2").contains("1.2.99")
    assert not tilde_range("~1.2").contains("1.3.0")
