"""The glue between the plugin's multi-agent env classes and the ``multiagent`` interface.

``geode build`` makes this module's ``Multiagent`` the component's export when the project's
``geode.json`` says ``{"kind": "multiagent"}``; plugin authors never import it. Errors are
reported as in :mod:`geode_sdk.guard`."""

import json

from wit_world import exports
from wit_world.exports import multiagent
from wit_world.imports import types

from .env import registered
from .guard import guarded
from .multiagent import MultiAgentEnv, Session
from .slot import info_json


if not registered(MultiAgentEnv):
    raise ImportError(
        "geode.json says this is a multi-agent plugin, but plugin.py defines no MultiAgentEnv "
        "subclass with specs (a single-agent plugin has no geode.json kind `multiagent`)"
    )


class Instance:
    """The contract's ``instance`` resource: one :class:`Session`."""

    def __init__(self, session):
        self.session = session

    def _roster(self):
        agents, active = self.session.roster()
        return multiagent.Roster(agents, active)

    def _turn(self, results):
        return multiagent.Turn(
            [
                multiagent.AgentResult(
                    r.agent,
                    r.observation,
                    float(r.reward),
                    bool(r.terminated),
                    bool(r.truncated),
                    guarded(lambda r=r: info_json(r.info)),
                )
                for r in results
            ],
            self._roster(),
        )

    def possible_agents(self):
        return self.session.agents.possible_agents

    def reset(self, seed):
        return self._turn(guarded(lambda: self.session.reset(seed)))

    def step(self, actions):
        return self._turn(guarded(lambda: self.session.step(actions)))

    def observe(self, agent):
        return guarded(lambda: self.session.observe(agent))

    def sample_random_action(self, agent):
        return guarded(lambda: self.session.sample_random_action(agent))

    def send_message(self, sender, receiver, message):
        guarded(lambda: self.session.agents.send_message(sender, receiver, message))
        return self._roster()

    def broadcast_message(self, sender, message):
        guarded(lambda: self.session.agents.broadcast_message(sender, message))
        return self._roster()

    def add_agent(self, agent):
        guarded(lambda: self.session.agents.add_agent(agent))
        return self._roster()

    def remove_agent(self, agent):
        guarded(lambda: self.session.agents.remove_agent(agent))
        return self._roster()

    def get_state(self):
        return guarded(self.session.get_state)

    def set_state(self, state):
        guarded(lambda: self.session.set_state(state))
        return self._roster()


class Multiagent(exports.Multiagent):
    """The component's ``multiagent`` export."""

    def describe(self):
        return [
            types.PluginSpec(spec.id, json.dumps(spec.default_config), spec.description)
            for spec, _ in registered(MultiAgentEnv).values()
        ]

    def create(self, id, config):
        return Instance(guarded(lambda: Session(id, json.loads(config))))
