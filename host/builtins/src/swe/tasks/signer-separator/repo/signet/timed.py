"""Signatures that expire."""

import time
from typing import Callable, Optional, Tuple

from .encoding import b64decode, b64encode, bytes_to_int, int_to_bytes
from .errors import BadSignature, SignatureExpired
from .signer import Signer


class TimestampSigner(Signer):
    """Token layout: ``value + sep + timestamp + sep + signature``."""

    def __init__(self, secret, salt: str = "signet.TimestampSigner", sep: str = ".",
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(secret, salt=salt, sep=sep)
        self.clock = clock

    def _now(self, now: Optional[int]) -> int:
        return int(self.clock() if now is None else now)

    def sign(self, value: str, now: Optional[int] = None) -> str:
        stamp = b64encode(int_to_bytes(self._now(now)))
        return super().sign(f"{value}{self.sep}{stamp}")

    def unsign_with_timestamp(
        self, token: str, max_age: Optional[int] = None, now: Optional[int] = None
    ) -> Tuple[str, int]:
        try:
            value, stamp, sig = token.split(self.sep)
        except ValueError:
            raise BadSignature("malformed token") from None
        if not self.verify(f"{value}{self.sep}{stamp}", sig):
            raise BadSignature("signature does not match")
        try:
            timestamp = bytes_to_int(b64decode(stamp))
        except ValueError:
            raise BadSignature("malformed timestamp") from None
        if max_age is not None:
            age = self._now(now) - timestamp
            if age > max_age:
                raise SignatureExpired(f"signature age {age} > {max_age} seconds", timestamp)
        return value, timestamp

    def unsign(self, token: str, max_age: Optional[int] = None, now: Optional[int] = None) -> str:
        return self.unsign_with_timestamp(token, max_age, now)[0]
