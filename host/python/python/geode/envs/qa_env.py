"""``gem.envs.qa_env``: the module GEM's entry point ``"gem.envs.qa_env:QaEnv"`` names (see
``geode.envs.dataset_envs``)."""

from geode.envs.dataset_envs import QaEnv

__all__ = ["QaEnv"]
