from urlkit import percent_decode, percent_encode


def test_unreserved_untouched():
    assert percent_encode("AZaz09-._~") == "AZaz09-._~"


def test_reserved_encoded():
    assert percent_encode("a&b=c+d#e/f g") == "a%26b%3Dc%2Bd%23e%2Ff%20g"


def test_safe_characters():
    assert percent_encode("/a b/", safe="/") == "/a%20b/"


def test_decode_utf8_sequences():
    assert percent_decode("Z%C3%BCrich") == "Zürich"
    assert percent_decode("%E2%82%AC%20") == "€ "


def test_malformed_percent_kept():
    assert percent_decode("100%") == "100%"
    assert percent_decode("%zz%4") == "%zz%4"
