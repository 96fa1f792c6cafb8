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


_MASK = (1 << 64) - 1


def _mix(z):
    """SplitMix64's output function: a bijective 64-bit mix."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def continuation_seed(stream, number):
    """The seed of unseeded episode ``number`` of ``stream`` (see :func:`continued`): a hash of
    the two numbers, distinct for every episode of a stream."""
    return _mix(_mix(stream ^ 0x243F6A8885A308D3) ^ number)


def continued(rng, stream, number):
    """The generator of unseeded episode ``number`` of ``stream``, an episode the host numbered
    (the batch export's ``continued`` start): ``rng`` (a new one when None) reseeded from those
    two numbers alone, so the host can replay the episode in a fresh instance."""
    return prepared(rng, continuation_seed(stream, number))


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
