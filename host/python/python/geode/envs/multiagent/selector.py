"""``AgentSelector``: whose actions the next step takes, turn by turn (``"sequential"``) or
all live agents at once (``"parallel"``)."""

from typing import List, Optional


class AgentSelector:
    """Walks ``agents`` in order (sequential mode) or selects them all (parallel mode).
    Removing an agent keeps the turn with the agent that was due after it."""

    def __init__(self, agents: List[str], mode: str = "sequential"):
        if mode not in ("sequential", "parallel"):
            raise ValueError(f"Unknown mode: {mode} (expected 'sequential' or 'parallel')")
        self.mode = mode
        self.reinit(agents)

    def get_active_agents(self) -> List[str]:
        """The agents whose actions the next step takes."""
        if self.mode == "sequential":
            return [self.selected] if self.selected is not None else []
        return list(self._agents)

    def next(self) -> None:
        """Passes the turn to the next agent (sequential mode only)."""
        if self.mode == "sequential" and self._agents:
            self._current_idx = (self._current_idx + 1) % len(self._agents)
            self.selected = self._agents[self._current_idx]

    def is_first(self) -> bool:
        """The selected agent is first in turn order."""
        return self._current_idx == 0

    def is_last(self) -> bool:
        """The selected agent is last in turn order."""
        return self._current_idx == len(self._agents) - 1

    def reinit(self, agents: List[str]) -> None:
        """Starts over with ``agents``, the first one selected."""
        self._agents = list(agents)
        self._current_idx = 0
        self.selected: Optional[str] = self._agents[0] if self._agents else None

    def add_agent(self, agent: str) -> None:
        """Appends ``agent`` to the turn order (no-op when present)."""
        if agent not in self._agents:
            self._agents.append(agent)
            if self.selected is None:
                self.selected = self._agents[self._current_idx]

    def remove_agent(self, agent: str) -> None:
        """Drops ``agent`` from the turn order (no-op when absent)."""
        if agent not in self._agents:
            return
        idx = self._agents.index(agent)
        self._agents.remove(agent)
        if not self._agents:
            self._current_idx, self.selected = 0, None
            return
        if idx <= self._current_idx:
            # Step back one, wrapping: the next `next()` lands on the agent due after it (also
            # when the first agent leaves on its own turn).
            self._current_idx = self._current_idx - 1 if self._current_idx > 0 else len(self._agents) - 1
        self._current_idx %= len(self._agents)
        self.selected = self._agents[self._current_idx]
