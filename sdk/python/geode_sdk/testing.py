"""Native test helpers: play a plugin's envs in plain CPython, no component involved.

``make(id, **overrides)`` builds the env exactly as the host would (defaults merged with
overrides, unknown keys refused) and returns a :class:`Slot` with ``reset(seed)``,
``step(action)``, ``sample_random_action()``, ``get_state()`` and ``set_state(blob)``."""

from .env import registered
from .errors import BadConfig, UnknownId
from .slot import Slot


def make(id, **overrides):
    """A live env of ``id`` with its default config updated by ``overrides``."""
    found = registered().get(id)
    if found is None:
        raise UnknownId(f"no env class provides `{id}`")
    spec, _ = found
    unknown = set(overrides) - set(spec.default_config)
    if unknown:
        raise BadConfig(f"unknown config keys: {sorted(unknown)}")
    return Slot(id, {**spec.default_config, **overrides})
