"""Signed JSON payloads."""

import json

from .encoding import b64decode, b64encode
from .errors import BadPayload
from .signer import Signer


class Serializer:
    def __init__(self, secret, salt: str = "signet.Serializer") -> None:
        self.signer = Signer(secret, salt=salt)

    def dumps(self, obj) -> str:
        payload = json.dumps(obj, separators=(",", ":"), sort_keys=True)
        return self.signer.sign(b64encode(payload))

    def loads(self, token: str):
        payload = self.signer.unsign(token)
        try:
            return json.loads(b64decode(payload).decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise BadPayload(f"could not decode payload: {exc}") from None
