"""geode's exceptions. Every error the runtime reports is a ``GeodeError``; most also derive
from the builtin a GEM user would catch (``ValueError`` for unknown ids, bad arguments and bad
configuration, ``RuntimeError`` for envs that fail)."""


class GeodeError(Exception):
    """Base class of every geode error."""


class UnknownEnvError(GeodeError, ValueError):
    """No loaded plugin provides the id (GEM raises ``ValueError`` here too).
    ``env_id`` names it; ``suggestions`` lists close ids."""


class BadConfigError(GeodeError, ValueError, TypeError):
    """A config override (a ``make`` keyword argument) or limit was rejected; ``key`` names it."""


class InvalidArgumentError(GeodeError, ValueError):
    """Arguments that cannot work: an index out of range, lengths that differ."""


class InputTooLargeError(GeodeError, ValueError):
    """An action over the env's size limit."""


class InvalidStateError(GeodeError, RuntimeError):
    """The call is not possible now: stepped before reset, a finished slot with autoreset
    disabled, a closed env."""


class EnvRefusedError(GeodeError, RuntimeError):
    """The plugin refused the call with a typed error; ``kind`` says which."""


class EnvTrappedError(GeodeError, RuntimeError):
    """The env's instance trapped or broke the contract and was thrown away; the next
    ``reset`` starts a fresh one."""


class GuestTrapError(EnvTrappedError):
    """The guest panicked or trapped (the message carries its own words)."""


class ContractError(EnvTrappedError):
    """The guest returned something the contract forbids (bad info JSON, oversized output)."""


class LimitError(EnvTrappedError):
    """The guest hit one of its limits."""


class OutOfFuelError(LimitError):
    """The call used up its fuel (deterministic CPU budget)."""


class DeadlineExceededError(LimitError):
    """The call ran past its wall-clock deadline."""


class MemoryLimitError(LimitError):
    """The guest tried to grow its memory past the limit."""


class StackOverflowError(LimitError):
    """The guest overflowed its call stack."""


class MissingExtraError(GeodeError, ImportError):
    """The env runs in the host's Python on a library that is not installed; the message names
    the extra that installs it (``pip install 'geode[rg]'`` for ReasoningGym's ``rg:*`` ids)."""


class PluginError(GeodeError):
    """A plugin could not be loaded."""


class NotAPluginError(PluginError, ValueError):
    """The file is not a geode plugin component."""


class DuplicateIdError(PluginError, ValueError):
    """Two plugins provide the same id."""


class PluginIOError(PluginError):
    """A plugin file or directory could not be read."""


__all__ = [name for name in dir() if name.endswith("Error")]
