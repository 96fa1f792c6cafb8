"""What the trainers' doors share: one geode episode, made from the options a consumer's config
or dataset row carries (an env id, config overrides, wrappers, a seed or a dataset row), and
the checks that turn malformed input into a clear error instead of a hang."""

from typing import Any, Mapping, Optional, Sequence, Tuple

import geode


def make_env(env_id: Any, config: Optional[Mapping[str, Any]] = None,
             wrappers: Optional[Sequence[Any]] = None):
    """``geode.make(env_id, wrappers=..., **config)`` after checking the option types (a config
    from YAML or Hydra arrives as any mapping; a wrapper list as any sequence of names)."""
    if not isinstance(env_id, str) or not env_id:
        raise TypeError(f"a geode env id must be a non-empty string, got {env_id!r}")
    if config is not None and not isinstance(config, Mapping):
        raise TypeError(f"the config of {env_id} must be a mapping of overrides, got {config!r}")
    if isinstance(wrappers, str):
        wrappers = [w for w in wrappers.split(",") if w]
    return geode.make(env_id, wrappers=list(wrappers or ()), **dict(config or {}))


def start(env, seed: Optional[int] = None, idx: Optional[int] = None) -> Tuple[str, dict]:
    """Resets ``env``: with ``idx``, on that row of a dataset env's walk; else with ``seed``."""
    for name, value in (("seed", seed), ("idx", idx)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"`{name}` must be an int, got {value!r}")
    if idx is not None:
        return env.reset(idx=idx)
    return env.reset(seed=seed)


def action_text(action: Any) -> str:
    """The action as the env takes it: text. Anything else is a ``TypeError`` naming it."""
    if not isinstance(action, str):
        raise TypeError(f"a geode action is the model's text (str), got {type(action).__name__}: {action!r}")
    return action


def plain(info: Mapping[str, Any]) -> dict:
    """An info dict with JSON-friendly values (numbers and strings as they are, anything else
    as its ``str``), for consumers that log or serialize metadata."""
    out = {}
    for key, value in info.items():
        if value is None or isinstance(value, (bool, int, float, str)):
            out[key] = value
        elif isinstance(value, Mapping):
            out[key] = plain(value)
        elif isinstance(value, (list, tuple)):
            out[key] = [v if isinstance(v, (bool, int, float, str)) or v is None else str(v) for v in value]
        else:
            out[key] = str(value)
    return out
