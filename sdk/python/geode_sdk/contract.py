"""The glue between the plugin's env classes and the component contract.

``geode build`` makes this module's ``Env`` the component's ``env`` export; plugin authors
never import it. Refusals (:class:`GeodeError`) become the contract's typed ``env-error``;
any other exception ends the instance, so the host reports a guest trap with the end of
its traceback."""

import json

from wit_world import exports
from wit_world.imports import types

from .env import registered
from .guard import guarded as _guarded
from .slot import Slot, info_json


if not registered():
    raise ImportError(
        "plugin.py defines no Env subclass with specs (a multi-agent plugin needs "
        '{"kind": "multiagent"} in geode.json)'
    )


class Instance:
    """The contract's ``instance`` resource: one :class:`Slot`."""

    def __init__(self, slot):
        self.slot = slot

    def reset(self, seed):
        out = _guarded(lambda: self.slot.reset(seed))
        return types.ResetResult(str(out.observation), _guarded(lambda: info_json(out.info)))

    def step(self, action):
        out = _guarded(lambda: self.slot.step(action))
        return types.StepResult(
            str(out.observation),
            float(out.reward),
            bool(out.terminated),
            bool(out.truncated),
            _guarded(lambda: info_json(out.info)),
        )

    def sample_random_action(self):
        return _guarded(self.slot.sample_random_action)

    def get_state(self):
        return _guarded(self.slot.get_state)

    def set_state(self, state):
        _guarded(lambda: self.slot.set_state(state))


class Env(exports.Env):
    """The component's ``env`` export."""

    def describe(self):
        return [
            types.PluginSpec(spec.id, json.dumps(spec.default_config), spec.description)
            for spec, _ in registered().values()
        ]

    def create(self, id, config):
        return Instance(_guarded(lambda: Slot(id, json.loads(config))))
