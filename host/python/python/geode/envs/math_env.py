"""``gem.envs.math_env``: the module GEM's entry point ``"gem.envs.math_env:MathEnv"`` names (see
``geode.envs.dataset_envs``)."""

from geode.envs.dataset_envs import MathEnv

__all__ = ["MathEnv"]
