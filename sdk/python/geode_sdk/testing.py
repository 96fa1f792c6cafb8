"""Native test helpers: play a plugin's envs in plain CPython, no component involved.

``make(id, **overrides)`` builds the env exactly as the host would (defaults merged with
overrides, unknown keys refused) and returns a :class:`Slot` with ``reset(seed)``,
``step(action)``, ``sample_random_action()``, ``get_state()`` and ``set_state(blob)``;
``make_multiagent(id, **overrides)`` does the same for a multi-agent env and returns its
:class:`Session` (``reset(seed)``, ``step([(agent, action), ...])``, ``observe(agent)``,
``agents``...)."""

from .env import registered
from .errors import BadConfig, UnknownId
from .multiagent import MultiAgentEnv, Session
from .slot import Slot


def _config(id, base, overrides):
    found = registered(base).get(id)
    if found is None:
        raise UnknownId(f"no env class provides `{id}`")
    spec, _ = found
    unknown = set(overrides) - set(spec.default_config)
    if unknown:
        raise BadConfig(f"unknown config keys: {sorted(unknown)}")
    return {**spec.default_config, **overrides}


def make(id, **overrides):
    """A live env of ``id`` with its default config updated by ``overrides``."""
    return Slot(id, _config(id, None, overrides))


def make_multiagent(id, **overrides):
    """A live multi-agent env of ``id`` with its default config updated by ``overrides``."""
    return Session(id, _config(id, MultiAgentEnv, overrides))
