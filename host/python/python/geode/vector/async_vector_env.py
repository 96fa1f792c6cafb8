"""``gem.vector.async_vector_env``: ``AsyncVectorEnv`` over Python env objects."""

from geode.vector.python_vector import AsyncVectorEnv

__all__ = ["AsyncVectorEnv"]
