"""The glue between the plugin's env classes and the component contract.

``geode build`` makes this module's ``Env`` the component's ``env`` export; plugin authors
never import it. Refusals (:class:`GeodeError`) become the contract's typed ``env-error``;
any other exception propagates, so the host reports a guest trap with its traceback."""

import json

from componentize_py_types import Err
from wit_world import exports
from wit_world.imports import types

from .env import registered
from .errors import GeodeError
from .slot import Slot, info_json

_ERRORS = {
    "bad-config": types.EnvError_BadConfig,
    "unknown-id": types.EnvError_UnknownId,
    "invalid-state": types.EnvError_InvalidState,
    "bad-state": types.EnvError_BadState,
    "internal": types.EnvError_Internal,
}


def _refused(error):
    return Err(_ERRORS[error.kind](str(error)))


class Instance:
    """The contract's ``instance`` resource: one :class:`Slot`."""

    def __init__(self, slot):
        self.slot = slot

    def reset(self, seed):
        try:
            out = self.slot.reset(seed)
        except GeodeError as error:
            raise _refused(error) from None
        return types.ResetResult(str(out.observation), info_json(out.info))

    def step(self, action):
        try:
            out = self.slot.step(action)
        except GeodeError as error:
            raise _refused(error) from None
        return types.StepResult(
            str(out.observation),
            float(out.reward),
            bool(out.terminated),
            bool(out.truncated),
            info_json(out.info),
        )

    def sample_random_action(self):
        try:
            return self.slot.sample_random_action()
        except GeodeError as error:
            raise _refused(error) from None

    def get_state(self):
        try:
            return self.slot.get_state()
        except GeodeError as error:
            raise _refused(error) from None

    def set_state(self, state):
        try:
            self.slot.set_state(state)
        except GeodeError as error:
            raise _refused(error) from None


class Env(exports.Env):
    """The component's ``env`` export."""

    def describe(self):
        return [
            types.PluginSpec(spec.id, json.dumps(spec.default_config), spec.description)
            for spec, _ in registered().values()
        ]

    def create(self, id, config):
        try:
            return Instance(Slot(id, json.loads(config)))
        except GeodeError as error:
            raise _refused(error) from None
