"""GEM's per-env reset arguments on vector envs: ``vec.reset(env3_kwargs={"seed": 7})``."""

import warnings
from typing import Any, Dict

from geode.errors import InvalidArgumentError


def env_reset_kwargs(kwargs: Dict[str, Any], index: int, env_id: str) -> Dict[str, Any]:
    """The reset arguments ``kwargs`` give env ``index`` of a native vector env. Every key of
    ``kwargs`` must be ``env{i}_kwargs``. A native env's reset takes a seed only: ``seed`` is
    used, any other argument (such as GEM's ``idx`` for dataset envs) is ignored with a warning
    naming it."""
    for key in kwargs:
        if not (key.startswith("env") and key.endswith("_kwargs") and key[3:-7].isdigit()):
            raise InvalidArgumentError(f"unknown reset argument `{key}` (expected env<i>_kwargs)")
    own = dict(kwargs.get(f"env{index}_kwargs") or {})
    for key in own:
        if key != "seed":
            warnings.warn(
                f"{env_id} (env {index}) takes only a seed at reset; {key!r} is ignored",
                stacklevel=3,
            )
    return {"seed": own["seed"]} if "seed" in own else {}
