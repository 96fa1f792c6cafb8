"""Refusals a plugin reports to the host. Raise one of these from ``__init__``, ``reset``,
``step`` or ``sample_random_action``; the host turns it into the matching typed error.

Any other exception is a bug in the plugin: the host reports it as a guest trap with the
traceback, discards the instance and keeps running."""


class GeodeError(Exception):
    """Base of every refusal; ``kind`` names the contract's ``env-error`` case."""

    kind = "internal"


class BadConfig(GeodeError):
    """A configuration value is malformed or out of range; the message names the key."""

    kind = "bad-config"


class UnknownId(GeodeError):
    """The env was asked for an id it does not provide."""

    kind = "unknown-id"


class InvalidState(GeodeError):
    """The call is not allowed now (for example ``step`` before ``reset``)."""

    kind = "invalid-state"


class BadState(GeodeError):
    """A snapshot given to ``set_state`` could not be decoded."""

    kind = "bad-state"


class Internal(GeodeError):
    """Any other failure the plugin wants to report without trapping."""

    kind = "internal"
