"""HMAC signed tokens."""

from .errors import BadData, BadPayload, BadSignature, SignatureExpired
from .serializer import Serializer
from .signer import Signer
from .timed import TimestampSigner

__all__ = [
    "BadData",
    "BadPayload",
    "BadSignature",
    "Serializer",
    "SignatureExpired",
    "Signer",
    "TimestampSigner",
]
