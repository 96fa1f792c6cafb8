"""Alias of ``geode.envs.registration`` (``geode.registration.ENV_REGISTRY``)."""

from geode.envs.registration import *  # noqa: F401,F403
from geode.envs.registration import ENV_REGISTRY, EnvSpec, make, make_vec, print_envs, register  # noqa: F401
