"""Multi-agent envs: subclass :class:`MultiAgentEnv` and write only the game's rules. The SDK
keeps what every multi-agent env shares (:class:`Agents`: the live agents, the turn, this
step's rewards and ends, the totals, the mailbox, removal of agents that are done), and
:class:`Session` runs the reset/step flow the component export and native tests share.

A project of multi-agent envs declares ``{"kind": "multiagent"}`` in its ``geode.json``
(``geode new --kind multiagent`` writes it), so ``geode build`` targets the
``multiagent-plugin`` world."""

import pickle
from dataclasses import dataclass, field

from .agents import Agents
from .config import Config
from .env import register, registered
from .errors import BadState, InvalidState, UnknownId
from .rng import Rng, entropy_seed, prepared
from .selector import SEQUENTIAL


class MultiAgentEnv:
    """Base class of a multi-agent environment. Subclasses list their ids in ``specs``, set
    ``mode`` (:data:`SEQUENTIAL`, the default, or :data:`PARALLEL`) and implement
    ``__init__(self, id, config)``, ``possible_agents(self)``, ``reset(self, agents, rng)``,
    ``step(self, actions, agents, rng)``, ``observe(self, agent, agents)`` and
    ``sample_random_action(self, agent, agents, rng)``.

    Everything random comes from ``rng`` (seeded by ``reset(seed)``), so an episode replays from
    its seed and actions. Keep the episode's state in attributes: snapshots pickle the
    instance with the agents and the generator."""

    specs = []
    mode = SEQUENTIAL

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        register(cls)

    def __init__(self, id, config):
        """Builds the env for ``id`` from its configuration (a :class:`Config`)."""

    def possible_agents(self):
        """Every agent an episode may have, in turn order; all are live after ``reset``."""
        raise NotImplementedError

    def reset(self, agents, rng):
        """Starts a new episode. ``agents`` is already reset (every possible agent live, the
        first one's turn); the env may record reset infos on it."""

    def step(self, actions, agents, rng):
        """Applies the actions of the active agents (``(agent, action)`` pairs in turn order),
        recording rewards, ends and infos on ``agents``. Illegal moves are the game's business
        (a penalty, a loss), never an exception."""
        raise NotImplementedError

    def observe(self, agent, agents):
        """What ``agent`` sees now (a string)."""
        raise NotImplementedError

    def sample_random_action(self, agent, agents, rng):
        """A random action for ``agent``, legal in the current state."""
        raise InvalidState(f"{type(self).__name__} does not sample random actions")


@dataclass
class AgentTurn:
    """What one agent got from a reset or a step."""

    agent: str
    observation: str
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False
    info: dict = field(default_factory=dict)


class Session:
    """One multi-agent env of ``id`` made from ``config`` (a dict: the id's defaults merged with
    overrides), with its :class:`Agents` and generator."""

    def __init__(self, id, config):
        found = registered(MultiAgentEnv).get(id)
        if found is None:
            raise UnknownId(f"this plugin does not provide `{id}`")
        _, cls = found
        self.env = cls(id, Config(config))
        self.agents = Agents(self.env.possible_agents(), self.env.mode)
        self.rng = None
        self.started = False

    def _rng(self):
        if self.rng is None:
            self.rng = Rng(entropy_seed())
        return self.rng

    def _results(self, who, finish):
        outcomes = [self.agents._take_outcome(a) for a in who]
        if finish:
            self.agents._finish_step()
        return [
            AgentTurn(
                a,
                str(self.env.observe(a, self.agents)),
                o.reward,
                o.terminated,
                o.truncated,
                o.info,
            )
            for a, o in zip(who, outcomes)
        ]

    def roster(self):
        """``(live agents, active agents)`` after the last call."""
        return self.agents.agents, self.agents.active

    def reset(self, seed=None):
        """Starts an episode (a seed reseeds the generator, ``None`` goes on with it); one
        :class:`AgentTurn` per agent."""
        rng = self.rng = prepared(self.rng, seed)
        self.agents._restart()
        self.env.reset(self.agents, rng)
        self.started = True
        return self._results(self.agents.agents, False)

    def step(self, actions):
        """Steps the active agents with ``actions`` (``(agent, action)`` pairs): each active
        agent exactly once, nobody else. Agents that end leave the roster; the turn passes on.
        One :class:`AgentTurn` per agent live before the step."""
        if not self.started:
            raise InvalidState("step called before reset")
        actions = [(str(a), str(b)) for a, b in actions]
        active = self.agents.active
        named = [a for a, _ in actions]
        if sorted(named) != sorted(active) or len(set(named)) != len(named):
            raise InvalidState(
                f"step needs one action from each active agent ({', '.join(active)})"
            )
        before = self.agents.agents
        self.agents._clear_outcomes()
        self.env.step(actions, self.agents, self._rng())
        return self._results(before, True)

    def observe(self, agent):
        """What ``agent`` sees now."""
        if agent not in self.agents.possible_agents and not self.agents.is_live(agent):
            raise InvalidState(f"no agent `{agent}` in this env")
        return str(self.env.observe(agent, self.agents))

    def sample_random_action(self, agent):
        """A random legal action for ``agent``."""
        if not self.agents.is_live(agent):
            raise InvalidState(f"agent `{agent}` is not in the episode")
        return str(self.env.sample_random_action(agent, self.agents, self._rng()))

    def get_state(self):
        """A snapshot of the env, its agents and its generator."""
        return pickle.dumps((self.env, self.agents, self.rng, self.started))

    def set_state(self, blob):
        """Restores a snapshot from :meth:`get_state` of an env of the same class."""
        try:
            env, agents, rng, started = pickle.loads(blob)
        except Exception as error:  # noqa: BLE001 - any decoding failure is a bad snapshot
            raise BadState(f"cannot decode the snapshot: {error}") from None
        if type(env) is not type(self.env) or not isinstance(agents, Agents):
            raise BadState("the snapshot is of another env class")
        self.env, self.agents, self.rng, self.started = env, agents, rng, started
