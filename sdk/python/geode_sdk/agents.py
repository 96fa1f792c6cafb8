"""The part of a multi-agent episode every env has: who is live, whose turn it is, what each
agent got this step, and the messages agents sent each other. The SDK keeps it; an env reads
it and records outcomes on it."""

from dataclasses import dataclass, field

from .errors import InvalidState
from .selector import AgentSelector


@dataclass
class Message:
    """One message between agents."""

    sender: str
    receiver: str
    text: str


@dataclass
class _Outcome:
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False
    info: dict = field(default_factory=dict)


class Agents:
    """The episode's agents, turn and mailbox, handed to the env's ``reset`` and ``step``."""

    def __init__(self, possible, mode):
        self._possible = [str(a) for a in possible]
        self._live = []
        self._selector = AgentSelector([], mode)
        self._outcomes = []  # per live agent, in the order of ``_live``
        self._cumulative = {}  # per agent ever live this episode
        self._messages = []

    # -- kept by the SDK ------------------------------------------------------------------

    def _restart(self):
        self._live = list(self._possible)
        self._selector.reinit(self._live)
        self._outcomes = [_Outcome() for _ in self._live]
        self._cumulative = {a: 0.0 for a in self._live}
        self._messages = []

    def _clear_outcomes(self):
        self._outcomes = [_Outcome() for _ in self._live]

    def _take_outcome(self, agent):
        """``agent``'s outcome of this call, its reward added to its total (flags kept)."""
        if agent not in self._live:
            return _Outcome()
        index = self._live.index(agent)
        outcome = self._outcomes[index]
        self._cumulative[agent] = self._cumulative.get(agent, 0.0) + outcome.reward
        self._outcomes[index] = _Outcome(terminated=outcome.terminated, truncated=outcome.truncated)
        return outcome

    def _finish_step(self):
        """Removes every agent that terminated or was truncated, then passes the turn on."""
        done = [a for a, o in zip(self._live, self._outcomes) if o.terminated or o.truncated]
        for agent in done:
            self.remove_agent(agent)
        self._selector.next()

    def _outcome(self, agent):
        return self._outcomes[self._live.index(agent)] if agent in self._live else None

    # -- read and written by the env ------------------------------------------------------

    @property
    def possible_agents(self):
        """Every agent an episode may have, in turn order."""
        return list(self._possible)

    @property
    def agents(self):
        """The live agents, in turn order."""
        return list(self._live)

    @property
    def active(self):
        """The agents whose actions the next step takes."""
        return self._selector.active()

    @property
    def selector(self):
        """The turn keeper (:class:`AgentSelector`)."""
        return self._selector

    def is_active(self, agent):
        """Whether ``agent`` acts at the next step."""
        return self._selector.is_active(agent)

    def is_live(self, agent):
        """Whether ``agent`` is in the episode."""
        return agent in self._live

    def reward(self, agent, reward):
        """Adds ``reward`` to ``agent``'s reward for this step (ignored for an agent not live)."""
        outcome = self._outcome(agent)
        if outcome is not None:
            outcome.reward += float(reward)

    def terminate(self, agent):
        """Marks ``agent`` done inside the task; it leaves the roster after this step."""
        outcome = self._outcome(agent)
        if outcome is not None:
            outcome.terminated = True

    def truncate(self, agent):
        """Marks ``agent`` cut short (a turn limit); it leaves the roster after this step."""
        outcome = self._outcome(agent)
        if outcome is not None:
            outcome.truncated = True

    def end_all(self, rewards=None):
        """Ends the episode for every live agent, with ``rewards`` (a dict agent -> reward)."""
        for agent, reward in (rewards or {}).items():
            self.reward(agent, reward)
        for outcome in self._outcomes:
            outcome.terminated = True

    def info(self, agent, key, value):
        """Adds ``key: value`` (JSON-able) to ``agent``'s info for this step."""
        outcome = self._outcome(agent)
        if outcome is not None:
            outcome.info[key] = value

    def cumulative_reward(self, agent):
        """The sum of ``agent``'s rewards this episode."""
        return self._cumulative.get(agent, 0.0)

    def add_agent(self, agent):
        """Brings ``agent`` into the episode, last in turn order (no-op when live)."""
        if agent in self._live:
            return
        self._live.append(agent)
        self._outcomes.append(_Outcome())
        self._cumulative.setdefault(agent, 0.0)
        self._selector.add_agent(agent)

    def remove_agent(self, agent):
        """Takes ``agent`` out of the episode (no-op when absent)."""
        if agent in self._live:
            index = self._live.index(agent)
            del self._live[index]
            del self._outcomes[index]
            self._selector.remove_agent(agent)

    def _check_live(self, agent, role):
        if agent not in self._live:
            live = ", ".join(self._live)
            raise InvalidState(f"{role} `{agent}` is not in the episode (live agents: {live})")

    def send_message(self, sender, receiver, text):
        """Queues ``text`` from ``sender`` for ``receiver``; both must be live."""
        self._check_live(sender, "sender")
        self._check_live(receiver, "receiver")
        self._messages.append(Message(sender, receiver, text))

    def broadcast_message(self, sender, text):
        """Queues ``text`` from ``sender`` for every other live agent."""
        self._check_live(sender, "sender")
        for receiver in self._live:
            if receiver != sender:
                self._messages.append(Message(sender, receiver, text))

    @property
    def messages(self):
        """Every message of the episode, oldest first."""
        return list(self._messages)

    def messages_to(self, agent):
        """The messages addressed to ``agent``, oldest first."""
        return [m for m in self._messages if m.receiver == agent]
