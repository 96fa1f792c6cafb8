"""Appending and checking signatures."""

import hashlib
import hmac

from .encoding import b64encode, to_bytes
from .errors import BadSignature
from .keys import derive_key


class Signer:
    """``sign(value)`` returns ``value + sep + signature``."""

    def __init__(self, secret, salt: str = "signet.Signer", sep: str = ".") -> None:
        if not sep or sep.isalnum() or sep in "-_=":
            raise ValueError(f"separator {sep!r} could appear in a signature")
        self.sep = sep
        self.key = derive_key(secret, salt)

    def signature(self, value) -> str:
        mac = hmac.new(self.key, to_bytes(value), hashlib.sha256)
        return b64encode(mac.digest())

    def sign(self, value: str) -> str:
        return f"{value}{self.sep}{self.signature(value)}"

    def verify(self, value: str, sig: str) -> bool:
        return hmac.compare_digest(self.signature(value), sig)

    def unsign(self, token: str) -> str:
        if self.sep not in token:
            raise BadSignature(f"no {self.sep!r} found in token")
        value, sig = token.split(self.sep, 1)
        if not self.verify(value, sig):
            raise BadSignature("signature does not match")
        return value
