"""The env's random number generator, owned by the SDK and prepared before every reset."""

import random


class Rng(random.Random):
    """CPython's ``random.Random`` (every method of the ``random`` module is here), plus
    ``below``. A seeded reset reseeds it with ``seed(seed)``, exactly as GEM's envs do, so a
    seeded episode in geode is the same episode as ``random.seed(seed)`` gives in Python."""

    def below(self, n):
        """A uniform integer in ``[0, n)``."""
        return self.randrange(n)
