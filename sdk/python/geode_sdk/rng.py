"""The env's random number generator, owned by the SDK and prepared before every reset."""

import os
import random


class Rng(random.Random):
    """CPython's ``random.Random`` (every method of the ``random`` module is here), plus
    ``below``. A seeded reset reseeds it with ``seed(seed)``, exactly as GEM's envs do, so a
    seeded episode in geode is the same episode as ``random.seed(seed)`` gives in Python."""

    def below(self, n):
        """A uniform integer in ``[0, n)``."""
        return self.randrange(n)


def entropy_seed():
    """A seed for a generator nobody seeded. In a component, WASI randomness is virtualized and
    seeded by the host, so this replays too."""
    return int.from_bytes(os.urandom(8), "little")


def prepared(rng, seed):
    """The generator for a reset with ``seed``: ``rng`` reseeded like ``random.seed(seed)``
    (a new one when ``rng`` is None), or, with no seed, ``rng`` going on (a new one seeded
    from :func:`entropy_seed` when None)."""
    if seed is None:
        return rng if rng is not None else Rng(entropy_seed())
    if rng is None:
        return Rng(seed)
    rng.seed(seed)
    return rng
