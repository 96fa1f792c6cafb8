"""Lists directories in a shuffled order, in every Python process of a perturbed replay.

``tests/perturbed/replay.sh`` puts this directory on ``PYTHONPATH`` with
``GEODE_SHUFFLE_LISTINGS=<seed>``: ``os.listdir`` and ``os.scandir`` (and so ``pathlib``,
``glob``, ``importlib.resources``) then return their entries in an order drawn from that seed,
as another file system or another install would. Code whose output follows the listing order
changes under it, and the golden replays name it."""

import os
import random

_SEED = os.environ.get("GEODE_SHUFFLE_LISTINGS")


class _ShuffledScandir:
    """``os.scandir``'s iterator, with the entries read up front and shuffled."""

    def __init__(self, entries):
        self._entries = iter(entries)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._entries)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def close(self):
        self._entries = iter(())


def _install(seed: str) -> None:
    listdir, scandir = os.listdir, os.scandir

    def shuffled(items):
        items = list(items)
        random.Random(f"{seed}:{len(items)}").shuffle(items)
        return items

    def shuffled_listdir(path="."):
        return shuffled(listdir(path))

    def shuffled_scandir(path="."):
        with scandir(path) as entries:
            return _ShuffledScandir(shuffled(entries))

    os.listdir = shuffled_listdir
    os.scandir = shuffled_scandir


if _SEED:
    _install(_SEED)
