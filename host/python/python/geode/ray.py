"""A vector env spread over a Ray cluster: ``geode.ray.make_vec(ids, num_workers=K, ...)``.

Slots are split into K contiguous ranges; each range lives in one Ray actor that owns a geode
vector env (``geode.make_vec``) for it. The driver keeps GEM's vector API and slot order:
``reset`` / ``step`` (a list of actions or ``{index: action}``) gather every actor's part in
index order, and ``send`` / ``recv`` (``async_mode=True``) return whichever parts are ready.
Env i is seeded ``seed + i`` exactly as in a local ``make_vec``, so results equal a local vector
env's with the same seeds.

When an actor dies (its node lost, the process killed), its slots report the failure the way a
local vector env reports an env that failed: the step returns each slot's fresh first
observation with ``info["error"]`` / ``info["error_type"] == "WorkerDiedError"`` (or raises with
``on_error="raise"``), and the slots are rebuilt in a new actor, which Ray places on a live node.
Other actors' slots are untouched. Needs the ``ray`` extra: ``pip install geode[ray]``.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from geode.errors import GeodeError, InvalidArgumentError, MissingExtraError
from geode.vector.vector_env import AutoresetMode, VectorEnv, autoreset_mode

__all__ = ["RayVectorEnv", "WorkerDiedError", "make_vec"]

# Ray's C++ failure signal handler takes SIGSEGV and SIGILL from wasmtime, which turns those
# signals, raised by a guest's out-of-bounds access or trap, into typed errors: with Ray's
# handler in front, a trapping env kills the process. Ray reads this when it is imported (Ray
# documents the same switch for the JVM, whose handlers clash the same way); it must be set
# before `import ray`, so import geode.ray first. Actors get it through their runtime_env.
_SIGNALS = {"RAY_DISABLE_FAILURE_SIGNAL_HANDLER": "1"}
for _key, _value in _SIGNALS.items():
    os.environ.setdefault(_key, _value)


class WorkerDiedError(GeodeError, RuntimeError):
    """The Ray actor holding a slot died; the slot was rebuilt in a new actor."""


def _ray():
    try:
        import ray
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise MissingExtraError("geode.ray needs Ray: pip install 'geode[ray]'") from e
    return ray


class _Worker:
    """One actor's share of the slots: a local geode vector env."""

    def __init__(self, env_ids, wrappers, vec_kwargs, options):
        import geode

        self.vec = geode.make_vec(env_ids, wrappers=wrappers, vec_kwargs=vec_kwargs, **options)

    def pid(self) -> int:
        return os.getpid()

    def reset(self, indices, seeds):
        obs, infos = self.vec.reset(seed=seeds, indices=indices)
        return obs, infos

    def step(self, pairs):
        """Steps ``[(local index, action)]``; plain lists and error names, ready to pickle."""
        obs, rewards, terms, truncs, infos = self.vec.step(dict(pairs))
        errors = [None if e is None else (type(e).__name__, str(e)) for e in self.vec.errors]
        return (obs, rewards.tolist(), terms.tolist(), truncs.tolist(), infos,
                list(self.vec.final_observations), list(self.vec.final_infos), errors)

    def sample_random_action(self):
        return [env.sample_random_action() for env in self.vec.envs]


def make_vec(
    env_ids: Union[str, Sequence[str]],
    wrappers: Optional[Sequence] = None,
    vec_kwargs: Optional[Sequence[dict]] = None,
    async_mode: bool = False,
    seed: int = 0,
    *,
    num_workers: int = 2,
    num_cpus_per_worker: float = 1,
    resources_per_worker: Optional[Dict[str, float]] = None,
    scheduling_strategy: Any = "SPREAD",
    runtime_env: Optional[dict] = None,
    on_error: str = "info",
    **kwargs: Any,
) -> "RayVectorEnv":
    """GEM's ``make_vec`` over ``num_workers`` Ray actors (Ray must be initialized, or is
    initialized locally). Placement: ``num_cpus_per_worker`` and ``resources_per_worker`` per
    actor, ``scheduling_strategy`` (``"SPREAD"`` by default; a ``PlacementGroupSchedulingStrategy``
    or ``NodeAffinitySchedulingStrategy`` pins actors), ``runtime_env``. Other keywords go to each
    actor's ``geode.make_vec`` (``autoreset_mode``, ``limits``, ``group_size``, env config)."""
    ray = _ray()
    if isinstance(env_ids, str):
        env_ids = [env_ids]
    env_ids = list(env_ids)
    if vec_kwargs is not None and len(vec_kwargs) != len(env_ids):
        raise InvalidArgumentError(f"{len(vec_kwargs)} vec_kwargs for {len(env_ids)} envs")
    if not 1 <= num_workers <= max(1, len(env_ids)):
        raise InvalidArgumentError(f"num_workers must be 1..{len(env_ids)}, got {num_workers}")
    if on_error not in ("info", "raise"):
        raise InvalidArgumentError(f"on_error must be 'info' or 'raise', got {on_error!r}")
    if not ray.is_initialized():
        ray.init()
    # Each slot's seed is fixed here, so an actor's env i is the local make_vec's env i.
    slot_kwargs = []
    for i in range(len(env_ids)):
        config = dict(vec_kwargs[i]) if vec_kwargs is not None else {}
        config.setdefault("seed", seed + i)
        slot_kwargs.append(config)
    mode = autoreset_mode(kwargs.pop("autoreset_mode", None))
    options = dict(kwargs, autoreset_mode=mode.value, on_error="info")
    actor_options = {"num_cpus": num_cpus_per_worker, "scheduling_strategy": scheduling_strategy}
    if resources_per_worker:
        actor_options["resources"] = dict(resources_per_worker)
    runtime_env = dict(runtime_env or {})
    runtime_env["env_vars"] = {**_SIGNALS, **runtime_env.get("env_vars", {})}
    actor_options["runtime_env"] = runtime_env
    return RayVectorEnv(env_ids, slot_kwargs, wrappers, options, num_workers, actor_options,
                        mode, async_mode, on_error)


class RayVectorEnv(VectorEnv):
    """GEM's vector env API over Ray actors (see the module doc). ``errors`` holds, after each
    step, the exception of each slot that failed (its env, or its actor)."""

    def __init__(self, env_ids, slot_kwargs, wrappers, options, num_workers, actor_options,
                 mode: AutoresetMode, async_mode: bool, on_error: str):
        super().__init__()
        ray = _ray()
        self.env_ids = list(env_ids)
        self.num_envs = len(self.env_ids)
        self.async_mode = async_mode
        self.on_error = on_error
        self._mode = mode
        self._slot_kwargs = slot_kwargs
        self._wrappers = list(wrappers or ())
        self._options = options
        self._actor_cls = ray.remote(_Worker).options(**actor_options)
        bounds = np.linspace(0, self.num_envs, num_workers + 1).astype(int)
        self._ranges = [range(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:])]
        self.workers = [self._spawn(r) for r in self._ranges]
        self._pending: List[tuple] = []  # (object ref, worker number, slot indices) per send
        self.final_observations: List[Optional[str]] = []
        self.final_infos: List[Optional[dict]] = []
        self.errors: List[Optional[Exception]] = []

    @property
    def autoreset_mode(self) -> AutoresetMode:
        return self._mode

    def _spawn(self, slots: range):
        ids = [self.env_ids[i] for i in slots]
        kwargs = [self._slot_kwargs[i] for i in slots]
        return self._actor_cls.remote(ids, self._wrappers, kwargs, self._options)

    def _worker_of(self, index: int) -> int:
        if not 0 <= index < self.num_envs:
            raise InvalidArgumentError(f"env index {index} out of range 0..{self.num_envs - 1}")
        for w, slots in enumerate(self._ranges):
            if index in slots:
                return w
        raise AssertionError("unreachable")

    def _split(self, pairs):
        """``[(index, action)]`` grouped by worker: ``{worker: [(index, action)]}``, in order."""
        parts: Dict[int, list] = {}
        for i, a in pairs:
            parts.setdefault(self._worker_of(i), []).append((i, a))
        return parts

    # -- resets ----------------------------------------------------------------------------

    def reset(self, seed: Optional[Union[int, Sequence[int]]] = None, *, indices=None, **kwargs):
        """Resets every env or the slots in ``indices``: ``(observations, infos)``; ``seed`` as
        in a local vector env (an int gives env i ``seed + i``)."""
        ray = _ray()
        idx = list(range(self.num_envs)) if indices is None else [int(i) for i in indices]
        if seed is None or isinstance(seed, (int, np.integer)):
            seeds = [None if seed is None else int(seed) + i for i in idx]
        else:
            seeds = [None if s is None else int(s) for s in seed]
            if len(seeds) != len(idx):
                raise InvalidArgumentError(f"{len(seeds)} seeds for {len(idx)} envs reset")
        parts = self._split(zip(idx, seeds))
        refs = {w: self._reset_ref(w, part) for w, part in parts.items()}
        results = {}
        for w, ref in refs.items():
            try:
                results[w] = ray.get(ref)
            except ray.exceptions.RayActorError:
                self._rebuild(w)
                results[w] = ray.get(self._reset_ref(w, parts[w]))
        return self._merge_resets(idx, parts, results)

    def _reset_ref(self, w: int, part):
        start = self._ranges[w].start
        local = [i - start for i, _ in part]
        seeds = [s for _, s in part]
        if all(s is None for s in seeds):
            seeds = None
        return self.workers[w].reset.remote(local, seeds)

    @staticmethod
    def _merge_resets(idx, parts, results):
        where = {}
        for w, part in parts.items():
            for k, (i, _) in enumerate(part):
                where[i] = (w, k)
        obs = [results[where[i][0]][0][where[i][1]] for i in idx]
        infos = [results[where[i][0]][1][where[i][1]] for i in idx]
        return obs, infos

    def _rebuild(self, w: int) -> None:
        """A new actor for worker ``w``'s slots (Ray places it on a live node)."""
        ray = _ray()
        try:
            ray.kill(self.workers[w], no_restart=True)
        except Exception:
            pass
        self.workers[w] = self._spawn(self._ranges[w])

    # -- steps -----------------------------------------------------------------------------

    def step(self, actions: Union[Sequence[str], Dict[int, str]]):
        """Steps every env (a list) or some (``{index: action}``): ``(observations, rewards,
        terminations, truncations, infos)`` for the envs stepped, in the order given."""
        if isinstance(actions, dict):
            pairs = [(int(i), a) for i, a in actions.items()]
        else:
            actions = list(actions)
            if len(actions) != self.num_envs:
                raise InvalidArgumentError(f"{len(actions)} actions for {self.num_envs} envs")
            pairs = list(enumerate(actions))
        parts = self._split(pairs)
        refs = [(self._step_ref(w, part), w, [i for i, _ in part]) for w, part in parts.items()]
        rows = {}
        for ref, w, slots in refs:
            rows.update(self._collect(ref, w, slots))
        return self._finish([rows[i] for i, _ in pairs])

    def _step_ref(self, w: int, part):
        start = self._ranges[w].start
        return self.workers[w].step.remote([(i - start, a) for i, a in part])

    def _collect(self, ref, w: int, slots: List[int]) -> Dict[int, tuple]:
        """One worker's results by slot; a dead worker's slots come back rebuilt, with the error."""
        ray = _ray()
        try:
            obs, rewards, terms, truncs, infos, fobs, finfos, errors = ray.get(ref)
        except ray.exceptions.RayActorError as e:
            return self._died(w, slots, e)
        return {i: (obs[k], rewards[k], terms[k], truncs[k], infos[k], fobs[k], finfos[k],
                    _error(errors[k])) for k, i in enumerate(slots)}

    def _died(self, w: int, slots: List[int], cause: Exception) -> Dict[int, tuple]:
        ray = _ray()
        self._rebuild(w)
        error = WorkerDiedError(f"the Ray actor of envs {self._ranges[w].start}.."
                                f"{self._ranges[w].stop - 1} died ({type(cause).__name__}); "
                                "they were rebuilt in a new actor")
        start = self._ranges[w].start
        obs, infos = ray.get(self.workers[w].reset.remote([i - start for i in slots], None))
        info = {"error": str(error), "error_type": type(error).__name__}
        return {i: (obs[k], 0.0, False, False, {**infos[k], **info}, None, None, error)
                for k, i in enumerate(slots)}

    def _finish(self, rows):
        obs = [r[0] for r in rows]
        self.final_observations = [r[5] for r in rows]
        self.final_infos = [r[6] for r in rows]
        self.errors = [r[7] for r in rows]
        if self.on_error == "raise":
            for error in self.errors:
                if error is not None:
                    raise error
        return (obs, np.asarray([r[1] for r in rows], dtype=np.float64),
                np.asarray([r[2] for r in rows], dtype=np.bool_),
                np.asarray([r[3] for r in rows], dtype=np.bool_), [r[4] for r in rows])

    # -- asynchronous API (async_mode=True) ------------------------------------------------

    def send(self, indices, actions: Optional[Sequence[str]] = None) -> None:
        """Starts steps and returns at once: ``send(indices, actions)`` or ``send({i: a})``;
        each worker's part runs in the order sent. Results come back through ``recv``."""
        if not self.async_mode:
            raise InvalidArgumentError("send/recv need make_vec(..., async_mode=True)")
        if actions is None:
            if not isinstance(indices, dict):
                raise InvalidArgumentError("send(indices, actions) or send({index: action})")
            pairs = [(int(i), a) for i, a in indices.items()]
        else:
            if len(indices) != len(actions):
                raise InvalidArgumentError(f"{len(indices)} indices but {len(actions)} actions")
            pairs = [(int(i), a) for i, a in zip(indices, actions)]
        for w, part in self._split(pairs).items():
            self._pending.append((self._step_ref(w, part), w, [i for i, _ in part]))

    def recv(self, min_batch: int = 1, timeout: Optional[float] = None):
        """Waits until at least ``min_batch`` results are ready (or ``timeout`` seconds pass)
        and returns every ready one: ``(indices, observations, rewards, terminations,
        truncations, infos)``."""
        ray = _ray()
        ready_rows: List[tuple] = []
        indices: List[int] = []
        wanted = min(min_batch, sum(len(s) for _, _, s in self._pending))
        while self._pending:
            refs = [ref for ref, _, _ in self._pending]
            done, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
            if len(indices) < wanted and not done:
                done, _ = ray.wait(refs, num_returns=1, timeout=timeout)
                if not done:
                    break
            finished = set(done)
            keep = []
            for ref, w, slots in self._pending:
                if ref in finished:
                    rows = self._collect(ref, w, slots)
                    indices.extend(slots)
                    ready_rows.extend(rows[i] for i in slots)
                else:
                    keep.append((ref, w, slots))
            self._pending = keep
            if len(indices) >= wanted:
                break
        obs, rewards, terms, truncs, infos = self._finish(ready_rows)
        return np.array(indices, dtype=np.int64), obs, rewards, terms, truncs, infos

    def sample_random_action(self) -> List[str]:
        ray = _ray()
        return [a for part in ray.get([w.sample_random_action.remote() for w in self.workers])
                for a in part]

    def close(self) -> None:
        ray = _ray()
        for worker in self.workers:
            try:
                ray.kill(worker, no_restart=True)
            except Exception:
                pass
        self.workers = []

    def __repr__(self) -> str:
        return f"RayVectorEnv({self.num_envs} envs over {len(self._ranges)} Ray actors)"


def _error(pair) -> Optional[Exception]:
    if pair is None:
        return None
    import geode.errors

    name, message = pair
    cls = getattr(geode.errors, name, GeodeError)
    try:
        return cls(message)
    except Exception:
        return GeodeError(message)
