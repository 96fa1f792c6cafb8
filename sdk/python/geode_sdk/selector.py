"""Whose actions the next step takes, in turn-based or parallel mode."""

SEQUENTIAL = "sequential"
"""One agent acts per step, in turn order (board games, dialogues)."""

PARALLEL = "parallel"
"""Every live agent acts at each step (simultaneous moves, parallel exchanges)."""


class AgentSelector:
    """Picks the acting agents. In sequential mode it walks the live agents in order and wraps
    around; removing an agent keeps the turn with the agent that was due next."""

    def __init__(self, agents, mode=SEQUENTIAL):
        if mode not in (SEQUENTIAL, PARALLEL):
            raise ValueError(f"mode must be {SEQUENTIAL!r} or {PARALLEL!r}, got {mode!r}")
        self.mode = mode
        self.agents = list(agents)
        self.current = 0

    def selected(self):
        """The agent whose turn it is (sequential mode), or the first agent; None if none."""
        return self.agents[self.current] if self.current < len(self.agents) else None

    def active(self):
        """The agents whose actions the next step takes."""
        if self.mode == PARALLEL:
            return list(self.agents)
        selected = self.selected()
        return [] if selected is None else [selected]

    def is_active(self, agent):
        """Whether ``agent`` acts at the next step."""
        if self.mode == PARALLEL:
            return agent in self.agents
        return self.selected() == agent

    def next(self):
        """Moves the turn to the next agent (sequential mode; parallel mode has no turns)."""
        if self.mode == SEQUENTIAL and self.agents:
            self.current = (self.current + 1) % len(self.agents)

    def is_first(self):
        """The selected agent is the first in turn order."""
        return self.current == 0

    def is_last(self):
        """The selected agent is the last in turn order."""
        return self.current + 1 == len(self.agents)

    def reinit(self, agents):
        """Starts over with ``agents``, the first one selected."""
        self.agents = list(agents)
        self.current = 0

    def add_agent(self, agent):
        """Appends ``agent`` to the turn order (no-op when present)."""
        if agent not in self.agents:
            self.agents.append(agent)

    def remove_agent(self, agent):
        """Drops ``agent`` from the turn order (no-op when absent). When it sat at or before the
        selected agent, the selection steps back one (wrapping), so the following ``next`` lands
        on the agent that was due after it."""
        if agent not in self.agents:
            return
        index = self.agents.index(agent)
        del self.agents[index]
        if not self.agents:
            self.current = 0
            return
        if index <= self.current:
            self.current = self.current - 1 if self.current > 0 else len(self.agents) - 1
        self.current %= len(self.agents)
