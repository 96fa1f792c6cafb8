"""Vector envs over Python env objects (GEM's ``SyncVectorEnv`` / ``AsyncVectorEnv``), used by
``make_vec`` when an env or a wrapper only exists in Python. Native envs inside still release
the GIL, so the async variant's threads step them in parallel."""

from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Dict, Optional, Sequence, Union

import numpy as np

from geode.core import Env
from geode.errors import InvalidArgumentError, InvalidStateError
from geode.vector.vector_env import AutoresetMode, VectorEnv, autoreset_mode


class SyncVectorEnv(VectorEnv):
    """Steps Python env objects one after another (GEM's ``SyncVectorEnv``)."""

    def __init__(self, env_ids: Sequence[str], env_fns: Sequence[Callable[[], Env]],
                 autoreset_mode_: Union[str, AutoresetMode] = AutoresetMode.SAME_STEP,
                 seeds: Optional[Sequence[Optional[int]]] = None):
        super().__init__()
        self.env_ids = list(env_ids)
        self.env_fns = env_fns
        self.envs = [fn() for fn in env_fns]
        self.num_envs = len(self.envs)
        self._mode = autoreset_mode(autoreset_mode_)
        self._initial_seeds = list(seeds) if seeds is not None else [None] * self.num_envs
        self._ended = np.zeros(self.num_envs, dtype=np.bool_)

    @property
    def autoreset_mode(self) -> AutoresetMode:
        """The autoreset mode (assignable)."""
        return self._mode

    @autoreset_mode.setter
    def autoreset_mode(self, value) -> None:
        self._mode = autoreset_mode(value)

    def _one(self, i: int, action):
        env = self.envs[i]
        if self._ended[i]:
            if self._mode == AutoresetMode.NEXT_STEP:
                obs, info = env.reset()
                return obs, 0.0, False, False, info
            if self._mode == AutoresetMode.DISABLED:
                raise InvalidStateError(f"env {i}: the episode is over and autoreset is disabled; reset this slot")
        obs, reward, terminated, truncated, info = env.step(action)
        if (terminated or truncated) and self._mode == AutoresetMode.SAME_STEP:
            obs, info = env.reset()
        return obs, reward, terminated, truncated, info

    def _map(self, fn, items):
        return [fn(*item) for item in items]

    def step(self, actions: Union[Sequence[str], Dict[int, str]]):
        """Steps the given envs (a list: all of them; a dict: a subset by index)."""
        if not isinstance(actions, dict):
            actions = list(actions)
            if len(actions) != self.num_envs:
                raise InvalidArgumentError(f"{len(actions)} actions for {self.num_envs} envs")
            actions = dict(enumerate(actions))
        results = self._map(self._one, list(actions.items()))
        obs, rewards, terms, truncs, infos = (list(x) for x in zip(*results)) if results else ([],) * 5
        for i, t, u in zip(actions, terms, truncs):
            self._ended[i] = bool(t or u)
        return (obs, np.asarray(rewards, dtype=np.float64), np.asarray(terms, dtype=np.bool_),
                np.asarray(truncs, dtype=np.bool_), infos)

    def reset(self, seed: Optional[Union[int, Sequence[int]]] = None, *, indices: Optional[Sequence[int]] = None,
              **kwargs):
        """Resets every env (or ``indices``): seed ``seed + i`` for an int, one per env for a list;
        GEM's ``env{i}_kwargs={...}`` are passed to env i's own ``reset``."""
        idx = list(range(self.num_envs)) if indices is None else list(indices)
        if seed is None:
            seeds = [self._initial_seeds[i] for i in idx]
        elif isinstance(seed, int):
            seeds = [seed + i for i in idx]
        else:
            seeds = list(seed)
            if len(seeds) != len(idx):
                raise InvalidArgumentError(f"{len(seeds)} seeds for {len(idx)} envs")
        for i in idx:
            self._initial_seeds[i] = None
        unknown = set(kwargs) - {f"env{i}_kwargs" for i in range(self.num_envs)}
        if unknown:
            raise InvalidArgumentError(f"unknown reset arguments: {', '.join(sorted(unknown))}")
        own = {i: dict(kwargs.get(f"env{i}_kwargs") or {}) for i in idx}
        results = self._map(
            lambda i, s: self.envs[i].reset(**{"seed": s, **own[i]}), list(zip(idx, seeds))
        )
        for i in idx:
            self._ended[i] = False
        return [r[0] for r in results], [r[1] for r in results]

    def close(self) -> None:
        """Closes every env."""
        for env in self.envs:
            env.close()


class AsyncVectorEnv(SyncVectorEnv):
    """Steps Python env objects on a thread pool (GEM's ``AsyncVectorEnv``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._executor = ThreadPoolExecutor(max_workers=self.num_envs)

    def _map(self, fn, items):
        return list(self._executor.map(lambda item: fn(*item), items))

    def close(self) -> None:
        """Closes every env and the thread pool."""
        super().close()
        self._executor.shutdown(wait=False)
