"""Exceptions."""


class BadData(Exception):
    """Base class: the token cannot be trusted."""


class BadSignature(BadData):
    """The signature does not match the value."""


class SignatureExpired(BadSignature):
    """The signature is valid but too old."""

    def __init__(self, message, timestamp):
        super().__init__(message)
        self.timestamp = timestamp


class BadPayload(BadData):
    """The signed payload could not be decoded."""
