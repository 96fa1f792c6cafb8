"""GEM's core API: the ``Env`` base class and ``EnvWrapper``. Native geode envs (made by
``geode.make``) are registered as virtual subclasses of ``Env``."""

import abc
from typing import Any, Optional, SupportsFloat, Tuple, TypeVar

from geode import _geode

ObsType = TypeVar("ObsType")
ActType = TypeVar("ActType")


class Env(abc.ABC):
    """An environment with GEM's API; subclass it to write an env in Python."""

    @abc.abstractmethod
    def step(self, action: ActType) -> Tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Applies one action: ``(observation, reward, terminated, truncated, info)``."""

    @abc.abstractmethod
    def reset(self, seed: Optional[int] = None) -> Tuple[ObsType, dict[str, Any]]:
        """Starts an episode: ``(observation, info)``."""

    def sample_random_action(self) -> str:
        """A random action valid in the current state."""
        raise NotImplementedError

    @property
    def unwrapped(self) -> "Env":
        """The innermost env."""
        return self

    def spawn(self, same_state: bool = False, **kwargs) -> "Env":
        """A new env of the same configuration, optionally in this env's state."""
        raise NotImplementedError

    def close(self) -> None:
        """Frees the env's resources."""


class EnvWrapper(Env):
    """A wrapper written in Python: holds ``self.env`` and copies its public attributes."""

    def __init__(self, env: Env):
        super().__init__()
        self.env = env
        for attr in dir(env):
            if not attr.startswith("_") and not hasattr(self, attr):
                try:
                    setattr(self, attr, getattr(env, attr))
                except AttributeError:
                    pass

    def step(self, action):
        """Steps the wrapped env."""
        return self.env.step(action)

    def reset(self, seed: Optional[int] = None):
        """Resets the wrapped env."""
        return self.env.reset(seed=seed)

    def sample_random_action(self) -> str:
        """The wrapped env's random action."""
        return self.env.sample_random_action()

    def get_state(self) -> bytes:
        """The wrapped env's state (Python wrappers keep their own state out of it)."""
        return self.env.get_state()

    def set_state(self, state: bytes) -> None:
        """Restores the wrapped env's state."""
        self.env.set_state(state)

    def close(self) -> None:
        """Closes the wrapped env."""
        self.env.close()

    @property
    def unwrapped(self) -> "Env":
        """The innermost env."""
        return self.env.unwrapped


Env.register(_geode.Env)
