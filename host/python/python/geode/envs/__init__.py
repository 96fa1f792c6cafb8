"""Environments, as in ``gem.envs``: the registry lives in ``geode.envs.registration``."""

from geode.envs.registration import ENV_REGISTRY, EnvSpec, make, make_vec, print_envs, register

__all__ = ["ENV_REGISTRY", "EnvSpec", "make", "make_vec", "print_envs", "register"]
