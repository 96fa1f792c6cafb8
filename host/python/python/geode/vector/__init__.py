"""Vector envs, as in ``gem.vector``."""

from geode.vector.native import NativeVectorEnv
from geode.vector.python_vector import AsyncVectorEnv, SyncVectorEnv
from geode.vector.vector_env import AutoresetMode, VectorEnv

__all__ = ["AsyncVectorEnv", "AutoresetMode", "NativeVectorEnv", "SyncVectorEnv", "VectorEnv"]
