"""URL-safe base64 without padding, and integer packing."""

import base64


def to_bytes(value) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


def b64encode(data) -> str:
    return base64.urlsafe_b64encode(to_bytes(data)).rstrip(b"=").decode("ascii")


def b64decode(text) -> bytes:
    data = to_bytes(text)
    return base64.urlsafe_b64decode(data + b"=" * (-len(data) % 4))


def int_to_bytes(number: int) -> bytes:
    if number < 0:
        raise ValueError("only non-negative integers can be packed")
    return number.to_bytes(max(1, (number.bit_length() + 7) // 8), "big")


def bytes_to_int(data: bytes) -> int:
    return int.from_bytes(data, "big")
