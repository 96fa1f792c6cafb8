"""``MultiAgentEnv``: the base class of multi-agent envs written in Python, with GEM's API.
A subclass sets ``possible_agents`` (and usually an ``agent_selector``), and implements
``observe(agent)`` and ``_process_actions(actions)``; the base keeps the roster, validates
actions, sums rewards, removes agents that are done and passes the turn on."""

import abc
import random
from typing import Any, Dict, List, Optional, Tuple

from geode.core import Env
from geode.envs.multiagent.selector import AgentSelector

StepDicts = Tuple[Dict[str, str], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, dict]]


class MultiAgentEnv(Env):
    """A multi-agent env: ``reset(seed) -> (observations, infos)`` and
    ``step({agent: action}) -> (observations, rewards, terminations, truncations, infos)``,
    every value a dict keyed by agent id."""

    def __init__(self):
        super().__init__()
        self.possible_agents: List[str] = []
        self.agents: List[str] = []
        self.terminations: Dict[str, bool] = {}
        self.truncations: Dict[str, bool] = {}
        self.rewards: Dict[str, float] = {}
        self.infos: Dict[str, dict] = {}
        self._cumulative_rewards: Dict[str, float] = {}
        self.agent_selector: Optional[AgentSelector] = None
        self.shared_memory: List[Dict[str, str]] = []
        self.global_context = ""
        self.rng = random.Random()

    def _active(self) -> List[str]:
        return self.agent_selector.get_active_agents() if self.agent_selector else list(self.agents)

    def step(self, actions: Dict[str, str]) -> StepDicts:
        """Steps the active agents with ``{agent: action}``."""
        if not isinstance(actions, dict):
            raise ValueError(f"Actions must be a dict, got {type(actions)}")
        active = self._active()
        self._validate_actions(actions, active)
        observations, rewards, terminations, truncations, infos = self._process_actions(actions)
        for agent in self.agents:
            if agent in rewards:
                self._cumulative_rewards[agent] = self._cumulative_rewards.get(agent, 0.0) + rewards[agent]
        self._remove_dead_agents()
        if self.agent_selector:
            self.agent_selector.next()
        return observations, rewards, terminations, truncations, infos

    def _validate_actions(self, actions: Dict[str, str], active_agents: List[str]) -> None:
        """Raises ``ValueError`` for an action of an unknown or inactive agent, or a missing one."""
        for agent in actions:
            if agent not in self.agents and agent not in self.possible_agents:
                raise ValueError(f"Unknown agent {agent} (agents: {', '.join(self.possible_agents)})")
            if agent not in active_agents:
                raise ValueError(f"Agent {agent} provided action but is not active")
        for agent in active_agents:
            done = self.terminations.get(agent, False) or self.truncations.get(agent, False)
            if not done and agent not in actions:
                raise ValueError(f"Missing action for active agent {agent}")

    @abc.abstractmethod
    def _process_actions(self, actions: Dict[str, str]) -> StepDicts:
        """Applies validated actions: the five dicts ``step`` returns."""

    def reset(self, seed: Optional[int] = None) -> Tuple[Dict[str, str], Dict[str, Any]]:
        """Starts an episode: every possible agent live, the first one's turn, no messages.
        ``seed`` reseeds ``self.rng``."""
        if seed is not None:
            self.rng.seed(seed)
        self.agents = list(self.possible_agents)
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.rewards = {a: 0.0 for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.shared_memory = []
        self.global_context = ""
        if self.agent_selector:
            self.agent_selector.reinit(self.agents)
        return {a: self.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    @abc.abstractmethod
    def observe(self, agent: str) -> str:
        """What ``agent`` sees now."""

    def get_state(self, agent: str) -> Tuple[str, float, bool, bool, dict]:
        """``(observation, cumulative reward, terminated, truncated, info)`` of a live agent."""
        if agent not in self.agents:
            raise ValueError(f"Agent {agent} not in environment")
        return (
            self.observe(agent),
            self._cumulative_rewards.get(agent, 0.0),
            self.terminations.get(agent, False),
            self.truncations.get(agent, False),
            self.infos.get(agent, {}),
        )

    def get_active_states(self) -> Dict[str, Tuple[str, float, bool, bool, dict]]:
        """``get_state`` of every active agent."""
        return {a: self.get_state(a) for a in self._active() if a in self.agents}

    def active_agents(self) -> List[str]:
        """The agents whose actions the next step takes."""
        return self._active()

    def add_agent(self, agent_id: str) -> None:
        """Brings ``agent_id`` into the episode, last in turn order."""
        if agent_id in self.agents:
            return
        self.agents.append(agent_id)
        self.terminations[agent_id] = False
        self.truncations[agent_id] = False
        self.rewards[agent_id] = 0.0
        self.infos[agent_id] = {}
        self._cumulative_rewards[agent_id] = 0.0
        if self.agent_selector:
            self.agent_selector.add_agent(agent_id)

    def remove_agent(self, agent_id: str) -> None:
        """Takes ``agent_id`` out of the episode."""
        if agent_id not in self.agents:
            return
        self.agents.remove(agent_id)
        for table in (self.terminations, self.truncations, self.rewards, self.infos, self._cumulative_rewards):
            table.pop(agent_id, None)
        if self.agent_selector:
            self.agent_selector.remove_agent(agent_id)

    def _remove_dead_agents(self) -> None:
        dead = [a for a in self.agents if self.terminations.get(a, False) or self.truncations.get(a, False)]
        for agent in dead:
            self.remove_agent(agent)

    def send_message(self, from_agent: str, to_agent: str, message: str) -> None:
        """Queues ``message`` from ``from_agent`` to ``to_agent`` in ``shared_memory``."""
        if from_agent not in self.agents:
            raise ValueError(f"Sender {from_agent} not in environment")
        if to_agent not in self.agents:
            raise ValueError(f"Receiver {to_agent} not in environment")
        self.shared_memory.append({"from": from_agent, "to": to_agent, "message": message})

    def broadcast_message(self, from_agent: str, message: str) -> None:
        """Queues ``message`` from ``from_agent`` to every other live agent."""
        if from_agent not in self.agents:
            raise ValueError(f"Sender {from_agent} not in environment")
        for agent in self.agents:
            if agent != from_agent:
                self.shared_memory.append({"from": from_agent, "to": agent, "message": message})

    def sample_random_action(self, agent: Optional[str] = None) -> str:
        """A random action for ``agent``; override it (the base has no action space)."""
        raise NotImplementedError
