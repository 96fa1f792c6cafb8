"""Key derivation."""

import hashlib
import hmac


def derive_key(secret, salt: str) -> bytes:
    """Derive a signing key so that different salts never share signatures."""
    secret = secret.encode("utf-8") if isinstance(secret, str) else secret
    return hmac.new(secret, b"signet.derive." + salt.encode("utf-8"), hashlib.sha256).digest()
