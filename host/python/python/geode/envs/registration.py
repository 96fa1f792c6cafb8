"""The env registry and GEM's ``make`` / ``make_vec`` / ``register`` / ``print_envs``.

Ids come from geode's plugins (built-ins plus ``GEODE_PLUGIN_PATH``, or ``load_plugin``); envs
written in Python can be added with ``register`` exactly as in GEM."""

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Union

from geode import _geode
from geode.core import Env
from geode.envs.kwargs import config_for, strict_from_env
from geode.errors import InvalidArgumentError
from geode.vector.native import NativeVectorEnv
from geode.vector.python_vector import AsyncVectorEnv, SyncVectorEnv
from geode.vector.vector_env import VectorEnv, autoreset_mode as _autoreset_mode
from geode.wrappers.wrapper_factory import CHAT, NATIVE, WrapperFactory, resolve


@dataclass
class EnvSpec:
    """One registered id: its entry point (a plugin for native ids) and default kwargs."""

    id: str
    entry_point: Union[Callable, str]
    kwargs: Dict[str, Any] = field(default_factory=dict)
    description: str = ""


class _Registry(Mapping):
    """Every env id: the plugins' (read on first use) and the ones registered from Python."""

    def __init__(self) -> None:
        self._native: Optional[Dict[str, EnvSpec]] = None
        self._multiagent: frozenset = frozenset()
        self.python: Dict[str, EnvSpec] = {}

    def _specs(self) -> Dict[str, EnvSpec]:
        if self._native is None:
            listed = [row for row in _geode.list_envs() if row[1] in ("env", "multiagent")]
            self._native = {
                env_id: EnvSpec(env_id, source, config, description)
                for env_id, kind, source, description, config in listed
            }
            self._multiagent = frozenset(row[0] for row in listed if row[1] == "multiagent")
        return self._native

    def is_multiagent(self, env_id: str) -> bool:
        """Whether ``env_id`` is a plugin's multi-agent env."""
        self._specs()
        return env_id in self._multiagent and env_id not in self.python

    def refresh(self) -> None:
        """Forgets the cached plugin ids (after ``load_plugin``)."""
        self._native = None

    def __getitem__(self, env_id: str) -> EnvSpec:
        if env_id in self.python:
            return self.python[env_id]
        return self._specs()[env_id]

    def __iter__(self) -> Iterator[str]:
        yield from self._specs()
        yield from (k for k in self.python if k not in self._specs())

    def __len__(self) -> int:
        return len(set(self._specs()) | set(self.python))

    def __contains__(self, env_id) -> bool:
        return env_id in self.python or env_id in self._specs()

    def __repr__(self) -> str:
        return f"ENV_REGISTRY({list(self)})"


ENV_REGISTRY = _Registry()

_MAKE_RESERVED = ("seed", "limits", "wrappers")


def register(env_id: str, entry_point: Union[Callable, str], **kwargs: Any) -> None:
    """Registers an env written in Python (``entry_point``: a class or ``"module:Class"``)."""
    if env_id in ENV_REGISTRY:
        raise ValueError(f"Environment {env_id} already registered.")
    ENV_REGISTRY.python[env_id] = EnvSpec(id=env_id, entry_point=entry_point, kwargs=kwargs)


def load_plugin(path: str) -> List[str]:
    """Loads a plugin file (``.wasm``) or a directory of them; returns the ids it added."""
    ids = _geode.load_plugin(str(path))
    ENV_REGISTRY.refresh()
    return ids


def add_data_dir(path: str) -> None:
    """Lets envs read dataset files from ``path``: an env's ``dataset`` kwarg may then name a
    ``.jsonl`` or ``.parquet`` file inside it, as a path relative to it (``GEODE_DATA_PATH``
    lists such directories at start-up)."""
    _geode.add_data_dir(str(path))


def list_envs() -> List[str]:
    """Every env id, sorted."""
    return sorted(ENV_REGISTRY)


def print_envs() -> None:
    """Prints every registered env with its entry point and default kwargs (GEM's format)."""
    if not len(ENV_REGISTRY):
        print("No environments registered.")
        return
    print("Detailed Registered Environments:")
    for env_id in ENV_REGISTRY:
        spec = ENV_REGISTRY[env_id]
        print(f"  - {env_id}:")
        print(f"      Entry Point: {spec.entry_point}")
        print(f"      Kwargs: {spec.kwargs}")


def _make_python(spec: EnvSpec, kwargs: Dict[str, Any]) -> Env:
    entry = spec.entry_point
    if isinstance(entry, str):
        module_path, class_name = entry.split(":")
        try:
            entry = getattr(importlib.import_module(module_path), class_name)
        except (ModuleNotFoundError, AttributeError) as e:
            raise ImportError(f"Could not import {module_path}.{class_name}. Error: {e}")
    env = entry(**{**spec.kwargs, **kwargs})
    if not isinstance(env, _geode.Env):  # a native env keeps the id of the env it runs
        env.env_id = spec.id
        env.entry_point = spec.entry_point
    return env


def _has_own_seed(env_id: str) -> bool:
    """Whether env ``env_id`` takes a ``seed`` in its config (dataset envs: the order they walk
    their rows in). GEM hands such envs the ``seed`` of ``make`` and ``seed + i`` in
    ``make_vec``; without it every slot of a vector would walk the same order."""
    native = env_id in ENV_REGISTRY and env_id not in ENV_REGISTRY.python
    return native and "seed" in ENV_REGISTRY[env_id].kwargs


def _python_own_seed(env_id: str) -> bool:
    """Whether Python env ``env_id`` is registered with a ``seed`` kwarg (GEM's ReasoningGym
    envs): GEM's ``make_vec`` only passes such an env ``seed + i`` to its constructor and resets
    it unseeded, so its first reset walks its own seeded order."""
    spec = ENV_REGISTRY.python.get(env_id)
    return spec is not None and "seed" in spec.kwargs


def _native_config(env_id: str, kwargs: Dict[str, Any], strict: Optional[bool]) -> Dict[str, Any]:
    """The config overrides of native env ``env_id`` in ``kwargs`` (see ``geode.envs.kwargs``;
    an unknown id is left to ``_geode`` to report, with close ids)."""
    strict = strict_from_env() if strict is None else strict
    if env_id not in ENV_REGISTRY:
        return kwargs
    return config_for(env_id, ENV_REGISTRY[env_id].kwargs, kwargs, strict)


def make(env_id: str, *, strict: Optional[bool] = None, **kwargs: Any) -> Env:
    """Makes env ``env_id``. Keyword arguments override its config, except: ``seed`` (the
    first reset without a seed uses it; any int; dataset envs take it as their config's
    ``seed``, which orders their walk, instead), ``limits`` (a dict: ``fuel_per_call``,
    ``deadline_per_call`` in seconds, ``max_memory_bytes``, ...) and ``wrappers`` (names or
    callables, applied in order). As GEM's envs do, keywords an env does not know are ignored
    (with a warning naming them; GEM's loading keywords such as ``verbose`` silently);
    ``strict=True`` (or ``GEODE_STRICT=1``) makes them a ``BadConfigError``."""
    wrappers = kwargs.pop("wrappers", None)
    if env_id in ENV_REGISTRY.python:
        env = _make_python(ENV_REGISTRY.python[env_id], kwargs)
    else:
        seed = kwargs.pop("seed", None)
        limits = kwargs.pop("limits", None)
        if seed is not None and _has_own_seed(env_id):
            # A dataset env's seed orders its walk, as GEM's constructor takes it; its first
            # reset is then unseeded, as in GEM, and poses the walk's first row.
            kwargs["seed"], seed = seed, None
        config = _native_config(env_id, kwargs, strict)
        if ENV_REGISTRY.is_multiagent(env_id):
            if wrappers:
                raise InvalidArgumentError(f"{env_id} is a multi-agent env: wrap SingleAgentEnv(env, agent) instead")
            from geode.envs.multiagent.plugin import PluginMultiAgentEnv

            return PluginMultiAgentEnv(_geode.make_multiagent(env_id, config or None, limits, seed))
        env = _geode.make(env_id, config or None, limits, seed)
    for wrapper in wrappers or ():
        env = resolve(wrapper)(env)
    return env


def _plan(resolved: list):
    """Splits a wrapper list into native layers, chat layers applied to native results, and
    layers that need a Python env per slot (anything else after the native prefix)."""
    i = 0
    while i < len(resolved) and isinstance(resolved[i], WrapperFactory) and resolved[i].kind == NATIVE:
        i += 1
    native, rest = resolved[:i], resolved[i:]

    def is_tracking(f):
        return isinstance(f, WrapperFactory) and f.name == "episode_tracking"

    if all(isinstance(f, WrapperFactory) and (f.kind == CHAT or is_tracking(f)) for f in rest):
        # Episode tracking only touches info keys the chat layers do not read: it commutes.
        return native + [f for f in rest if is_tracking(f)], [f for f in rest if f.kind == CHAT], []
    return native, [], rest


def _python_slot(env_id: str, config: dict, seed: Optional[int], limits, wrappers: list) -> Env:
    if env_id in ENV_REGISTRY.python:
        env = make(env_id, **{"seed": seed, **config})
    else:
        env = make(env_id, limits=limits, **config)
    for wrapper in wrappers:
        env = wrapper(env)
    return env


def make_vec(
    env_ids: Union[str, Sequence[str]],
    wrappers: Optional[Sequence] = None,
    vec_kwargs: Optional[Sequence[dict]] = None,
    async_mode: bool = False,
    seed: int = 0,
    *,
    autoreset_mode=None,
    limits: Optional[dict] = None,
    num_threads: int = 0,
    on_error: str = "info",
    group_size: int = 0,
    strict: Optional[bool] = None,
    **kwargs: Any,
) -> VectorEnv:
    """GEM's ``make_vec``: one env per id (a str makes one env), env i seeded ``seed + i`` (or
    ``vec_kwargs[i]["seed"]``) on its first reset (and in its config when it has a ``seed`` key,
    as dataset envs do), config ``{**vec_kwargs[i], **kwargs}``,
    ``wrappers`` (names or callables) applied in order. geode extras: ``autoreset_mode``
    (``SameStep`` default, ``NextStep``, ``Disabled``), ``limits``, ``num_threads`` for the async
    pool (0: one per core) and ``on_error`` (``"info"``: a failed env is restarted and its info
    gets ``error``/``error_type``; ``"raise"``: the step raises it after the batch), and
    ``group_size``: envs per unit, consecutive envs of one plugin sharing a component instance and
    stepped with one call per unit (0, the default, picks the size from the slot count and the
    cores; 1 gives every env its own instance). A failure inside a unit is recovered: only the
    env that caused it reports an error and restarts. Keywords an env does not know are
    ignored with a warning, as in ``make`` (``strict=True`` makes them an error)."""
    if isinstance(env_ids, str):
        env_ids = [env_ids]
    env_ids = list(env_ids)
    if vec_kwargs is not None and len(vec_kwargs) != len(env_ids):
        raise InvalidArgumentError(f"{len(vec_kwargs)} vec_kwargs for {len(env_ids)} envs")
    mode = _autoreset_mode(autoreset_mode)
    configs, seeds, first_seeds = [], [], []
    for i in range(len(env_ids)):
        config = dict(vec_kwargs[i]) if vec_kwargs is not None else {}
        seeds.append(config.pop("seed", seed + i))
        first_seeds.append(None if _python_own_seed(env_ids[i]) else seeds[i])
        if _has_own_seed(env_ids[i]) or _python_own_seed(env_ids[i]):
            config["seed"] = seeds[i]
        config.update(kwargs)
        if env_ids[i] not in ENV_REGISTRY.python:
            config = _native_config(env_ids[i], config, strict)
        configs.append(config)
    resolved = [resolve(w) for w in wrappers or ()]
    native, chat, rest = _plan(resolved)
    if rest or any(env_id in ENV_REGISTRY.python for env_id in env_ids):
        if group_size > 1:
            raise InvalidArgumentError(
                "group_size above 1 needs geode's own envs without Python wrappers"
            )
        fns = [
            functools.partial(_python_slot, env_id, configs[i], seeds[i], limits, resolved)
            for i, env_id in enumerate(env_ids)
        ]
        cls = AsyncVectorEnv if async_mode else SyncVectorEnv
        return cls(env_ids, fns, mode, seeds=first_seeds)
    specs = [(f.name, f.native_config()) for f in native]

    def build(mode_name: str):
        return _geode.make_vec(
            env_ids, configs, specs, mode_name, limits, async_mode, num_threads, group_size, seeds
        )

    takes_idx = [env_id in ENV_REGISTRY and "dataset" in ENV_REGISTRY[env_id].kwargs for env_id in env_ids]
    return NativeVectorEnv(build, env_ids, mode, chat, on_error, takes_idx=takes_idx,
                           async_mode=async_mode)


def _register_reasoning_gym() -> None:
    from geode.envs import reasoning_gym

    for spec in reasoning_gym.env_specs():
        if spec["id"] not in ENV_REGISTRY.python:
            ENV_REGISTRY.python[spec["id"]] = EnvSpec(**spec)


_register_reasoning_gym()


def _register_math_visual() -> None:
    # GEM's kwargs for the id; the env runs in the host's Python (its observation holds images).
    ENV_REGISTRY.python["math:Geometry3K"] = EnvSpec(
        id="math:Geometry3K",
        entry_point="geode.envs.math_visual_env:MathVisualEnv",
        kwargs={
            "dataset_name": "axon-rl/geometry3k",
            "split": "train",
            "image_key": "images",
            "question_key": "problem",
            "answer_key": "answer",
        },
        description="Geometry questions with diagrams (axon-rl/geometry3k); host Python, needs geode[vision]",
    )


_register_math_visual()
