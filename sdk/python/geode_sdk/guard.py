"""How the glue of every world reports what plugin code raised: a refusal
(:class:`GeodeError`) becomes the contract's typed ``env-error``; any other exception ends the
instance, so the host reports a guest trap with the end of its traceback."""

import os
import sys
import traceback

from componentize_py_types import Err
from wit_world.imports import types

from .errors import GeodeError

_ERRORS = {
    "bad-config": types.EnvError_BadConfig,
    "unknown-id": types.EnvError_UnknownId,
    "invalid-state": types.EnvError_InvalidState,
    "bad-state": types.EnvError_BadState,
    "internal": types.EnvError_Internal,
}


def env_error(error):
    """The contract's ``env-error`` for the refusal ``error`` (a :class:`GeodeError`)."""
    return _ERRORS[error.kind](str(error))


def trap():
    """Ends the instance over the exception being handled, a bug: the end of its traceback
    goes to stderr, which the host reads, and the host reports a guest trap with it."""
    traceback.print_exc()
    sys.stderr.flush()
    os._exit(70)


def guarded(call):
    """Runs ``call``: a refusal becomes the contract's error; any other exception is a bug,
    reported as a trap whose message is the end of its traceback (see :func:`trap`)."""
    try:
        return call()
    except GeodeError as error:
        raise Err(env_error(error)) from None
    except BaseException:  # noqa: BLE001 - every other exception ends the instance
        trap()
