"""geode: GEM's environment API (``import geode as gem``) on environments that run as sandboxed
WebAssembly components, stepped from Rust with the GIL released.

    import geode as gem
    env = gem.make("game:GuessTheNumber-v0-hard")
    obs, info = env.reset(seed=42)
    obs, reward, terminated, truncated, info = env.step("\\\\boxed{25}")

    vec = gem.make_vec(["game:GuessTheNumber-v0-hard"] * 64, wrappers=["concat"], async_mode=True)
"""

import importlib as _importlib
import importlib.util as _importlib_util

from geode import _geode
from geode.core import Env, EnvWrapper
from geode.envs import registration
from geode.envs.registration import (
    ENV_REGISTRY,
    EnvSpec,
    add_data_dir,
    list_envs,
    load_plugin,
    make,
    make_vec,
    print_envs,
    register,
)
from geode.errors import *  # noqa: F401,F403
from geode.errors import __all__ as _error_names
from geode.vector import AutoresetMode, NativeVectorEnv, VectorEnv
from geode import multiagent, sandbox, tools, utils, wrappers
from geode import _gem_alias
from geode.evaluation import eval  # noqa: A004 - geode.eval, as `geode eval`

CONTRACT_VERSION = _geode.contract_version()
_gem_alias.install()

#: Names served by a door module, imported on first use (the door's library is optional).
#: verifiers finds taskset ``geode`` by reading this package's ``__all__``, so they are listed
#: there when verifiers is installed.
_LAZY = {"GeodeTaskset": "geode.verifiers", "GeodeEnv": "geode.verifiers"}


def __getattr__(name):
    if name in _LAZY:
        return getattr(_importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'geode' has no attribute {name!r}")


__all__ = [
    "AutoresetMode",
    "CONTRACT_VERSION",
    "ENV_REGISTRY",
    "Env",
    "EnvSpec",
    "EnvWrapper",
    "NativeVectorEnv",
    "VectorEnv",
    "add_data_dir",
    "eval",
    "list_envs",
    "load_plugin",
    "make",
    "make_vec",
    "multiagent",
    "print_envs",
    "register",
    "registration",
    "sandbox",
    "tools",
    "utils",
    "wrappers",
    *_error_names,
]
if _importlib_util.find_spec("verifiers") is not None:
    __all__ += list(_LAZY)
