"""One live env as the host sees it: the author's object, its generator and whether an
episode started. The contract glue and the native test helpers both drive envs through it."""

import json
import pickle

from .config import Config
from .env import registered
from .errors import BadState, InvalidState, UnknownId
from .results import Reset, Step
from .rng import Rng, continued, entropy_seed, prepared


class Slot:
    """An env of ``id`` made from ``config`` (a dict: the id's defaults merged with overrides)."""

    def __init__(self, id, config):
        found = registered().get(id)
        if found is None:
            raise UnknownId(f"this plugin does not provide `{id}`")
        _, cls = found
        self.env = cls(id, Config(config))
        self.rng = None
        self.started = False

    def _rng(self):
        if self.rng is None:
            self.rng = Rng(entropy_seed())
        return self.rng

    def reset(self, seed=None):
        """A seed reseeds the generator like ``random.seed(seed)``; ``None`` goes on with it."""
        return self._start(prepared(self.rng, seed))

    def reset_continued(self, stream, number):
        """Starts unseeded episode ``number`` of ``stream``, whose randomness derives from those
        two numbers alone (see :func:`~geode_sdk.rng.continued`)."""
        return self._start(continued(self.rng, stream, number))

    def _start(self, rng):
        self.rng = rng
        out = self.env.reset(rng)
        if isinstance(out, str):
            out = Reset(out)
        self.started = True
        return out

    def step(self, action):
        if not self.started:
            raise InvalidState("step called before reset")
        out = self.env.step(action, self._rng())
        if not isinstance(out, Step):
            raise TypeError(f"step must return a Step, got {type(out).__name__}")
        return out

    def sample_random_action(self):
        return str(self.env.sample_random_action(self._rng()))

    def get_state(self):
        return pickle.dumps((self.env, self.rng, self.started))

    def set_state(self, blob):
        try:
            env, rng, started = pickle.loads(blob)
        except Exception as error:  # noqa: BLE001 - any decoding failure is a bad snapshot
            raise BadState(f"cannot decode the snapshot: {error}") from None
        if type(env) is not type(self.env):
            raise BadState("the snapshot is of another env class")
        self.env, self.rng, self.started = env, rng, started


# One encoder for every info: `json.dumps` with separators builds a new one per call.
_ENCODE = json.JSONEncoder(separators=(",", ":")).encode


def info_json(info):
    """An info dict as the JSON object text the host expects."""
    if not isinstance(info, dict):
        raise TypeError(f"info must be a dict, got {type(info).__name__}")
    return _ENCODE(info)
