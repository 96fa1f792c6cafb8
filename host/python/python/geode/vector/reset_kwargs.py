"""GEM's per-env reset arguments on vector envs: ``vec.reset(env3_kwargs={"seed": 7})``."""

import warnings
from typing import Any, Dict

from geode.errors import InvalidArgumentError


def env_reset_kwargs(kwargs: Dict[str, Any], index: int, env_id: str, takes_idx: bool) -> Dict[str, Any]:
    """The reset arguments ``kwargs`` give env ``index`` of a native vector env. Every key of
    ``kwargs`` must be ``env{i}_kwargs``. ``seed`` is used; so is GEM's ``idx`` (the dataset
    row to ask next) when the env reads a dataset (``takes_idx``); any other argument is
    ignored with a warning naming it."""
    for key in kwargs:
        if not (key.startswith("env") and key.endswith("_kwargs") and key[3:-7].isdigit()):
            raise InvalidArgumentError(f"unknown reset argument `{key}` (expected env<i>_kwargs)")
    own = dict(kwargs.get(f"env{index}_kwargs") or {})
    accepted = ("seed", "idx") if takes_idx else ("seed",)
    for key in own:
        if key not in accepted:
            warnings.warn(
                f"{env_id} (env {index}) takes only {' and '.join(accepted)} at reset; {key!r} is ignored",
                stacklevel=3,
            )
    return {key: own[key] for key in accepted if own.get(key) is not None}
