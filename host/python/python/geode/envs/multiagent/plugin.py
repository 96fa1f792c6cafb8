"""``PluginMultiAgentEnv``: a multi-agent env of a geode plugin (``ma:TicTacToe-v0``...),
run in its sandboxed instance by the host, with the same API as ``MultiAgentEnv``
subclasses. Made by ``geode.make`` for multi-agent ids."""

from typing import Any, Dict, List, Optional, Tuple

from geode import _geode
from geode.envs.multiagent.base import MultiAgentEnv, StepDicts


class _SelectorView:
    """A read-only ``AgentSelector`` view of a plugin env's turn."""

    def __init__(self, native):
        self._native = native

    def get_active_agents(self) -> List[str]:
        """The agents whose actions the next step takes."""
        return self._native.active_agents()

    @property
    def selected(self) -> Optional[str]:
        """The first acting agent."""
        active = self._native.active_agents()
        return active[0] if active else None


class PluginMultiAgentEnv(MultiAgentEnv):
    """A plugin's multi-agent env. Actions for unknown or inactive agents, or a missing
    action, raise ``InvalidArgumentError`` (a ``ValueError``) before the plugin sees them; a
    trap or limit in the plugin raises the matching ``geode.errors`` exception and ends the
    episode (the next ``reset`` starts a fresh instance)."""

    def __init__(self, native: "_geode.MultiAgentEnv"):
        self._native = native
        self.env_id = native.env_id
        self.agent_selector = _SelectorView(native)

    @property
    def possible_agents(self) -> List[str]:
        """Every agent an episode may have, in turn order."""
        return self._native.possible_agents

    @property
    def agents(self) -> List[str]:
        """The live agents, in turn order."""
        return self._native.agents

    def active_agents(self) -> List[str]:
        """The agents whose actions the next step takes."""
        return self._native.active_agents()

    def reset(self, seed: Optional[int] = None) -> Tuple[Dict[str, str], Dict[str, Any]]:
        """Starts an episode: ``(observations, infos)``."""
        return self._native.reset(seed)

    def step(self, actions: Dict[str, str]) -> StepDicts:
        """Steps the active agents with ``{agent: action}``."""
        return self._native.step(actions)

    def _process_actions(self, actions):  # the plugin applies actions itself
        raise NotImplementedError

    def observe(self, agent: str) -> str:
        """What ``agent`` sees now."""
        return self._native.observe(agent)

    def sample_random_action(self, agent: Optional[str] = None) -> str:
        """A random legal action for ``agent`` (default: the first active agent)."""
        return self._native.sample_random_action(agent)

    def send_message(self, from_agent: str, to_agent: str, message: str) -> None:
        """Sends ``message`` from ``from_agent`` to ``to_agent``."""
        self._native.send_message(from_agent, to_agent, message)

    def broadcast_message(self, from_agent: str, message: str) -> None:
        """Sends ``message`` from ``from_agent`` to every other live agent."""
        self._native.broadcast_message(from_agent, message)

    def add_agent(self, agent_id: str) -> None:
        """Brings ``agent_id`` into the episode."""
        self._native.add_agent(agent_id)

    def remove_agent(self, agent_id: str) -> None:
        """Takes ``agent_id`` out of the episode."""
        self._native.remove_agent(agent_id)

    def get_state(self, agent: Optional[str] = None):
        """With ``agent``: GEM's ``(observation, cumulative reward, terminated, truncated,
        info)`` is not kept by plugins, so this returns the env's snapshot (bytes) when
        ``agent`` is None and ``(observation, None, False, False, {})`` for a live agent."""
        if agent is None:
            return self._native.get_state()
        if agent not in self.agents:
            raise ValueError(f"Agent {agent} not in environment")
        return self.observe(agent), None, False, False, {}

    def set_state(self, state: bytes) -> None:
        """Restores a snapshot from ``get_state()``."""
        self._native.set_state(state)

    def spawn(self, same_state: bool = False, **kwargs) -> "PluginMultiAgentEnv":
        """A fresh env of the same id and config (in this env's state with ``same_state``)."""
        twin = PluginMultiAgentEnv(self._native.spawn())
        if same_state:
            twin.set_state(self.get_state())
        return twin

    def __repr__(self) -> str:
        return f"PluginMultiAgentEnv({self.env_id!r}, agents={self.agents})"
