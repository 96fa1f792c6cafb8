"""``NativeVectorEnv``: a vector env whose slots live in Rust (``_geode.VectorEnv``: GEM's
synchronous steps, and ``send``/``recv`` with ``async_mode``). Stepping releases the GIL; this
class adds GEM's return types, first-reset seeding, chat-template layers and the error policy."""

import asyncio
import itertools
from collections import deque
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from geode import _geode
from geode.errors import InputTooLargeError, InvalidArgumentError, InvalidStateError
from geode.vector.reset_kwargs import env_reset_kwargs
from geode.vector.vector_env import AutoresetMode, VectorEnv, autoreset_mode

_RESET = object()  # marks a slot whose pending job is a reset


class _Closed:
    """Stands in for the native object of a closed vector env."""

    def __getattr__(self, name):
        raise InvalidStateError("the vector env is closed")


class NativeVectorEnv(VectorEnv):
    """GEM's vector env API over native slots, plus ``send``/``recv`` and ``step_async`` when
    made with ``async_mode=True``. After each step, ``final_observations`` / ``final_infos``
    hold the last observation and info of episodes that ended under SameStep autoreset (else
    ``None``), and ``errors`` the exception of each slot whose env failed (it was restarted)."""

    def __init__(self, build: Callable[[str], object], env_ids: Sequence[str], mode: AutoresetMode, chat_layers: Sequence = (), on_error: str = "info",
                 takes_idx: Optional[Sequence[bool]] = None, async_mode: bool = False):
        super().__init__()
        if on_error not in ("info", "raise"):
            raise InvalidArgumentError(f"on_error must be 'info' or 'raise', got {on_error!r}")
        self._mode = mode
        self._raw = build(mode.value)
        self.env_ids = list(env_ids)
        self.num_envs = len(self.env_ids)
        # Which envs read a dataset, and so take GEM's ``idx`` at reset.
        self._takes_idx = list(takes_idx) if takes_idx is not None else [False] * self.num_envs
        self.async_mode = async_mode
        self._chat_layers = list(chat_layers)
        self._histories = self._new_histories()
        self._ended = [False] * self.num_envs
        self._pending: Dict[int, deque] = {}  # actions sent per slot, oldest first
        self._futures: Dict[int, tuple] = {}  # step_async token -> (future, index, action)
        self._tokens = itertools.count()
        self._reader_loop = None  # the asyncio loop watching the pool's wake-up fd
        self.on_error = on_error
        # The last batch step's size, final observations, final infos and errors; a column the
        # step left as None (nothing ended, nothing failed) becomes a list of Nones when read.
        self._finals: list = [0, [], [], []]

    def _new_histories(self):
        if not self._chat_layers:
            return None
        return [[layer.history() for layer in self._chat_layers] for _ in range(self.num_envs)]

    @property
    def final_observations(self) -> List[Optional[str]]:
        """The last observation of each episode the last batch step ended under SameStep
        autoreset (``None`` for the others)."""
        return self._final(1)

    @property
    def final_infos(self) -> List[Optional[dict]]:
        """The last info of each episode the last batch step ended (see ``final_observations``)."""
        return self._final(2)

    @property
    def errors(self) -> List[Optional[Exception]]:
        """The exception of each slot whose env failed in the last batch step (it was restarted),
        else ``None``."""
        return self._final(3)

    def _final(self, column: int) -> list:
        values = self._finals[column]
        if values is None:
            values = self._finals[column] = [None] * self._finals[0]
        return values

    @property
    def autoreset_mode(self) -> AutoresetMode:
        """The autoreset mode. Assigning it changes how the following steps end episodes; the
        envs keep their episodes."""
        return self._mode

    @autoreset_mode.setter
    def autoreset_mode(self, value) -> None:
        mode = autoreset_mode(value)
        self._raw.set_autoreset_mode(mode.value)
        self._mode = mode

    @property
    def envs(self) -> List[Any]:
        """One handle per slot, driven like a single env (GEM's ``vec.envs``): ``reset``,
        ``step`` (no autoreset), ``sample_random_action``, ``get_state``, ``set_state``. Calls
        reach the slot's env with its native wrappers; ``reset`` and ``step`` also go through the
        vector's chat layers, as GEM's per-env wrappers would (``.env`` is the raw slot)."""
        if self._histories is None:
            return [self._raw.slot(i) for i in range(self.num_envs)]
        return [_ChatSlot(self, i) for i in range(self.num_envs)]

    # -- resets ------------------------------------------------------------------------------

    def reset(self, seed: Optional[Union[int, Sequence[int]]] = None, *, indices: Optional[Sequence[int]] = None,
              **kwargs):
        """Resets every env, or the slots in ``indices``: ``(observations, infos)``. ``seed``: an
        int gives env i ``seed + i``; a list gives one seed per env reset; ``None`` uses
        ``make_vec``'s seeds on each env's first reset, then continues its randomness. GEM's
        ``env{i}_kwargs={...}`` give env i its own reset arguments (see ``env_reset_kwargs``)."""
        idx = list(range(self.num_envs)) if indices is None else [int(i) for i in indices]
        seeds = self._seeds_for(idx, seed)
        for k, i in enumerate(idx):
            own = env_reset_kwargs(kwargs, i, self.env_ids[i], self._takes_idx[i])
            if "seed" in own:
                seeds[k] = own["seed"]
            if "idx" in own:  # GEM's dataset envs: this row next, whatever the seed
                seeds[k] = None
                self.envs[i].seek_episode(own["idx"])
        obs, infos = self._raw.reset_some(idx, seeds)
        for k, i in enumerate(idx):
            self._ended[i] = False
            obs[k] = self._on_reset(i, obs[k], infos[k])
        return obs, infos

    def _seeds_for(self, idx: List[int], seed) -> List[Optional[int]]:
        # No seed: each slot's first reset takes its make_vec seed (the native side keeps them).
        if seed is None:
            seeds = [None] * len(idx)
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in idx]
        else:
            seeds = [None if s is None else int(s) for s in seed]
            if len(seeds) != len(idx):
                raise InvalidArgumentError(
                    f"If seeds are passed as a list the length must match the envs reset ({len(idx)}), got {len(seeds)}"
                )
        return seeds

    def _on_reset(self, i: int, obs: str, info: dict) -> str:
        if self._histories is not None:
            for history in self._histories[i]:
                obs = history.on_reset(obs, info)
        return obs

    def _on_step(self, i: int, action: str, obs: str, info: dict) -> str:
        if self._histories is not None:
            for history in self._histories[i]:
                obs = history.on_step(action, obs, info)
        return obs

    # -- steps -------------------------------------------------------------------------------

    def step(self, actions: Union[Sequence[str], Dict[int, str]]):
        """Steps every env (a list of actions) or a subset (``{index: action}``); returns
        ``(observations, rewards, terminations, truncations, infos)`` for the envs stepped."""
        if isinstance(actions, dict):
            pairs = [(int(i), a) for i, a in actions.items()]
            raw = self._raw.step_some(pairs)
            acts = [a for _, a in pairs]
        else:
            acts = actions if isinstance(actions, list) else list(actions)
            raw = self._raw.step_all(acts)
        return self._postprocess(raw, acts)

    def _postprocess(self, raw, actions: Sequence, batch: bool = True):
        """GEM's return values from a raw native batch (whose rewards and flags are already
        float64 and bool arrays), after error infos, chat layers and the error policy. A batch
        step also keeps its final observations, final infos and errors on the vector env."""
        indices, obs, rewards, terms, truncs, infos, fobs, finfos, errs = raw
        if errs is not None or self._histories is not None:
            n = len(obs)
            if fobs is None:
                fobs = [None] * n
            if finfos is None:
                finfos = [None] * n
            self._apply_errors_and_layers(range(n) if indices is None else indices, actions, obs,
                                          terms, truncs, infos, fobs, finfos, errs)
        if batch:
            self._finals = [len(obs), fobs, finfos, errs]
        if errs is not None and self.on_error == "raise":
            raise next(e for e in errs if e is not None)
        return obs, rewards, terms, truncs, infos

    def _apply_errors_and_layers(self, indices, actions, obs, terms, truncs, infos, fobs, finfos, errs):
        """Adds each failed slot's error to its info and runs the chat layers, in place."""
        if errs is not None:
            for k, err in enumerate(errs):
                if err is not None:
                    infos[k] = {**infos[k], "error": str(err), "error_type": type(err).__name__}
        if self._histories is not None:
            for k, i in enumerate(indices):
                err = errs[k] if errs is not None else None
                obs[k], fobs[k] = self._transform(i, actions[k], obs[k], infos[k], fobs[k], finfos[k], err)
                self._ended[i] = bool(terms[k] or truncs[k])

    def _transform(self, i, action, obs, info, fobs, finfo, err):
        """Chat layers for one slot: (observation, final observation)."""
        if action is _RESET:
            return self._on_reset(i, obs, info), None
        if err is not None:
            if isinstance(err, (InvalidStateError, InputTooLargeError)):
                return obs, None  # refused: the slot did not move
            return self._on_reset(i, obs, info), None  # restarted from a fresh instance
        if self._mode == AutoresetMode.NEXT_STEP and self._ended[i]:
            return self._on_reset(i, obs, info), None
        if fobs is not None:
            final = self._on_step(i, action, fobs, finfo)
            return self._on_reset(i, obs, info), final
        return self._on_step(i, action, obs, info), None

    # -- asynchronous API (async_mode=True) ------------------------------------------------------

    def _pool(self):
        if not self.async_mode:
            raise InvalidArgumentError("send/recv/step_async need make_vec(..., async_mode=True)")
        return self._raw

    def send(self, indices: Union[Sequence[int], Dict[int, str]], actions: Optional[Sequence[str]] = None) -> None:
        """Starts steps and returns at once: ``send(indices, actions)`` or ``send({index: action})``.
        Results come back through ``recv``."""
        pool = self._pool()
        if actions is None:
            if not isinstance(indices, dict):
                raise InvalidArgumentError("send(indices, actions) or send({index: action})")
            pairs = [(int(i), a) for i, a in indices.items()]
        else:
            pairs = [(int(i), a) for i, a in zip(indices, actions)]
            if len(pairs) != len(indices) or len(pairs) != len(actions):
                raise InvalidArgumentError(f"{len(indices)} indices but {len(actions)} actions")
        pool.send(pairs)
        for i, a in pairs:
            self._pending.setdefault(i, deque()).append(a)

    def send_reset(self, indices: Sequence[int], seeds: Optional[Sequence[Optional[int]]] = None) -> None:
        """Starts resets of ``indices`` (with ``seeds``); results come back through ``recv``."""
        pool = self._pool()
        idx = [int(i) for i in indices]
        pool.send_reset(list(zip(idx, self._seeds_for(idx, seeds))))
        for i in idx:
            self._pending.setdefault(i, deque()).append(_RESET)

    def recv(self, min_batch: int = 1, timeout: Optional[float] = None):
        """Waits until ``min_batch`` results are ready (or ``timeout`` seconds pass) and returns
        every ready one: ``(indices, observations, rewards, terminations, truncations, infos)``,
        indices as a numpy array. Resets sent with ``send_reset`` come back with reward 0."""
        raw = self._pool().recv(min_batch, timeout)
        indices = raw[0]
        actions = [self._pending[i].popleft() if self._pending.get(i) else "" for i in indices]
        obs, rewards, terms, truncs, infos = self._postprocess(raw, actions)
        return np.array(indices, dtype=np.int64), obs, rewards, terms, truncs, infos

    async def step_async(self, index: int, action: str):
        """Steps env ``index`` and awaits only its result: ``(observation, reward, terminated,
        truncated, info)``. Many episodes can await at once (``asyncio.gather``); each moves at
        its own pace on the pool's worker threads, and the event loop never blocks. When the
        step ends an episode under SameStep autoreset, ``observation`` is the next episode's
        first one and ``info`` carries the ended episode's last observation and info under
        ``"final_observation"`` and ``"final_info"``; the vector-level ``final_observations``,
        ``final_infos`` and ``errors`` belong to batch steps and are left as they are."""
        pool = self._pool()
        loop = asyncio.get_running_loop()
        self._watch(loop)
        token = next(self._tokens)
        future = loop.create_future()
        self._futures[token] = (future, int(index), action)
        pool.step_one(int(index), action, token)
        try:
            return await future
        finally:
            self._futures.pop(token, None)

    def _watch(self, loop) -> None:
        """Has ``loop`` call ``_deliver`` when step_async results are waiting."""
        if self._reader_loop is not loop:
            self._unwatch()
            loop.add_reader(self._raw.wakeup_fd, self._deliver)
            self._reader_loop = loop

    def _unwatch(self) -> None:
        loop, self._reader_loop = self._reader_loop, None
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self._raw.wakeup_fd)

    def _deliver(self) -> None:
        """Resolves the futures of every finished step_async (runs on the event loop)."""
        for token, ok, result in self._raw.drain():
            entry = self._futures.pop(token, None)
            if entry is None:
                continue
            future, index, action = entry
            if not ok:
                if not future.cancelled():
                    future.set_exception(result)
                continue
            obs, reward, term, trunc, info, fobs, finfo, err = result
            if err is None and fobs is None and self._histories is None:
                # A plain step: nothing for _postprocess to do.
                if not future.cancelled():
                    future.set_result((obs, reward, term, trunc, info))
                continue
            raw = ([index], [obs], [reward], [term], [trunc], [info], [fobs], [finfo],
                   [err] if err is not None else None)
            try:
                obs, rewards, terms, truncs, infos = self._postprocess(raw, [action], batch=False)
                fobs = raw[6][0]  # after the chat layers
                info = infos[0]
                if fobs is not None:
                    info = {**info, "final_observation": fobs, "final_info": finfo}
                value = (obs[0], rewards[0], terms[0], truncs[0], info)
            except Exception as e:  # on_error="raise", or a chat template that failed
                if not future.cancelled():
                    future.set_exception(e)
                continue
            if not future.cancelled():
                future.set_result(value)

    @property
    def pending(self) -> int:
        """Results sent and not yet received (async mode)."""
        return self._raw.pending if self.async_mode else 0

    def close(self) -> None:
        """Frees the envs (and the pool's threads); later calls raise ``InvalidStateError``."""
        self._unwatch()
        raw, self._raw = self._raw, _Closed()
        if isinstance(raw, _geode.VectorEnv):
            raw.close()

    def __repr__(self) -> str:
        kind = "async" if self.async_mode else "sync"
        return f"<geode.NativeVectorEnv {kind} {self.num_envs} envs, {self._mode.value}>"


class _ChatSlot:
    """Slot ``index`` of a native vector env with chat layers, seen as GEM's wrapped env:
    ``reset`` and ``step`` keep the slot's chat history; everything else is the raw slot's."""

    def __init__(self, vector: NativeVectorEnv, index: int):
        self._vector, self._index = vector, index
        self.env = vector._raw.slot(index)

    def reset(self, seed=None, idx=None):
        obs, info = self.env.reset(seed=seed, idx=idx)
        self._vector._ended[self._index] = False
        return self._vector._on_reset(self._index, obs, info), info

    def step(self, action: str):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._vector._ended[self._index] = bool(terminated or truncated)
        return self._vector._on_step(self._index, action, obs, info), reward, terminated, truncated, info

    @property
    def unwrapped(self):
        return self.env.unwrapped

    def __getattr__(self, name: str):
        return getattr(self.env, name)
