"""The class a plugin's environments derive from, and the ids they provide."""

from dataclasses import dataclass, field

from .errors import InvalidState

_REGISTERED = []


@dataclass
class Spec:
    """One id an env class provides: the id users pass to ``make``, one line for
    ``geode list``, and the id's full default configuration (a dict; the host rejects
    override keys that are not in it)."""

    id: str
    description: str
    default_config: dict = field(default_factory=dict)


class Env:
    """Base class of an environment. Subclasses list their ids in ``specs`` and implement
    ``__init__(self, id, config)``, ``reset(self, rng)`` and ``step(self, action, rng)``;
    ``sample_random_action(self, rng)`` is strongly advised (geode's conformance suite and
    ``geode run`` play random actions).

    Every subclass with a non-empty ``specs`` is part of the plugin. The instance is the
    episode's whole state: snapshots (``get_state``) pickle it with the generator, so keep
    everything the env needs in attributes, and nothing in globals."""

    specs = []

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        register(cls)

    def __init__(self, id, config):
        """Builds the env for ``id`` from its configuration (a :class:`Config`)."""

    def reset(self, rng):
        """Starts a new episode; returns a :class:`Reset` or the first observation."""
        raise NotImplementedError

    def step(self, action, rng):
        """Applies one action and returns a :class:`Step`. An unparsable action is an
        ordinary step with a format-error reward, never an exception."""
        raise NotImplementedError

    def sample_random_action(self, rng):
        """A random action valid in the current state."""
        raise InvalidState(f"{type(self).__name__} does not sample random actions")


def register(cls):
    """Makes ``cls`` part of the plugin when it lists ids in its own ``specs`` (called by the
    base classes' ``__init_subclass__``)."""
    if cls.__dict__.get("specs"):
        _REGISTERED.append(cls)


def registered(base=None):
    """Every env class of the plugin deriving from ``base`` (default :class:`Env`), by id
    (each id once)."""
    base = Env if base is None else base
    by_id = {}
    for cls in _REGISTERED:
        if not issubclass(cls, base):
            continue
        for spec in cls.specs:
            if spec.id in by_id:
                raise ValueError(f"id `{spec.id}` is provided twice")
            by_id[spec.id] = (spec, cls)
    return by_id
