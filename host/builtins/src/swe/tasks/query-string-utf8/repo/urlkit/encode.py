"""Percent-encoding (RFC 3986)."""

import string

UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
_HEX = frozenset(string.hexdigits)


def percent_encode(text: str, safe: str = "") -> str:
    """Percent-encode everything except unreserved characters and ``safe``."""
    out = []
    for ch in text:
        if ch in UNRESERVED or ch in safe:
            out.append(ch)
        else:
            out.append("%{:02X}".format(ord(ch)))
    return "".join(out)


def percent_decode(text: str) -> str:
    """Decode ``%XX`` escapes (as UTF-8); malformed escapes are kept as is."""
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        escape = text[i + 1 : i + 3]
        if ch == "%" and len(escape) == 2 and set(escape) <= _HEX:
            out.append(int(text[i + 1 : i + 3], 16))
            i += 3
        else:
            out.extend(ch.encode("utf-8"))
            i += 1
    return out.decode("utf-8", errors="replace")
