from signet.encoding import b64decode, b64encode, bytes_to_int, int_to_bytes


def test_roundtrip_all_lengths():
    for n in range(0, 20):
        data = bytes(range(250, 250 - n, -1))
        assert b64decode(b64encode(data)) == data


def test_no_padding_in_output():
    assert b64encode(b"ab") == "YWI"
    assert b64encode(b"\xfb\xff") == "-_8"


def test_int_bytes_roundtrip():
    for number in (0, 1, 255, 256, 1_700_000_000, 2**40):
        assert bytes_to_int(int_to_bytes(number)) == number
