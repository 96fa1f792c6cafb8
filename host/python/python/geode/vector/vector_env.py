"""The vector env base class and GEM's ``AutoresetMode`` (plus ``DISABLED``)."""

from enum import Enum
from typing import Any, Sequence, TypeVar, Union

from geode.core import Env

ArrayType = TypeVar("ArrayType")


class AutoresetMode(Enum):
    """What a vector env does when an episode ends. ``SAME_STEP`` (GEM's default): the ending
    step returns the final reward and flags with the next episode's first observation.
    ``NEXT_STEP`` (Gymnasium's): the ending step returns the final observation and the slot's
    next step resets it. ``DISABLED``: the caller resets finished slots (``reset(indices=...)``)."""

    NEXT_STEP = "NextStep"
    SAME_STEP = "SameStep"
    DISABLED = "Disabled"


def autoreset_mode(value: Union[str, Enum, None]) -> AutoresetMode:
    """An ``AutoresetMode`` from itself, GEM's enum, or a name such as ``"next_step"``."""
    if value is None:
        return AutoresetMode.SAME_STEP
    if isinstance(value, Enum):
        value = value.value
    key = str(value).lower().replace("_", "").replace("-", "")
    for mode in AutoresetMode:
        if mode.value.lower() == key:
            return mode
    from geode.errors import BadConfigError

    err = BadConfigError(f"unknown autoreset_mode {value!r}; expected SameStep, NextStep or Disabled")
    err.key = "autoreset_mode"
    raise err


class VectorEnv(Env):
    """Several envs stepped together: ``step(actions)`` takes one action per env (a list) or a
    subset (``{index: action}``) and returns ``(observations, rewards, terminations,
    truncations, infos)`` for the envs stepped, rewards and flags as numpy arrays."""

    num_envs: int
    env_ids: Sequence[str]

    def sample_random_action(self) -> Any:
        """Not defined for vector envs (sample from single envs)."""
        raise NotImplementedError("sample actions from the single envs")
