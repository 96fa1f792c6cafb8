"""``gem.envs.code_env``: the module GEM's entry point ``"gem.envs.code_env:CodeEnv"`` names (see
``geode.envs.dataset_envs``)."""

from geode.envs.dataset_envs import CodeEnv

__all__ = ["CodeEnv"]
