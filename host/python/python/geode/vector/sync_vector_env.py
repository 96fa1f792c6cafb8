"""``gem.vector.sync_vector_env``: ``SyncVectorEnv`` over Python env objects."""

from geode.vector.python_vector import SyncVectorEnv

__all__ = ["SyncVectorEnv"]
