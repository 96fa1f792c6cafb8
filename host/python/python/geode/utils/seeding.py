"""Seeding helpers (``gem.utils.seeding``)."""

import random
from typing import Optional, Tuple

import numpy as np

#: The random generator type envs written in Python use.
RandomNumberGenerator = RNG = np.random.Generator


def np_random(seed: Optional[int] = None) -> Tuple[np.random.Generator, int]:
    """A numpy generator seeded from ``seed`` (fresh entropy when None), and the seed it used."""
    if seed is not None and not (isinstance(seed, int) and seed >= 0):
        raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
    sequence = np.random.SeedSequence(seed)
    return RandomNumberGenerator(np.random.PCG64(sequence)), sequence.entropy


def set_seed(seed: Optional[int] = None) -> None:
    """Seeds Python's and numpy's global generators."""
    random.seed(seed)
    np.random.seed(seed)
