"""What ``reset`` and ``step`` return."""

from dataclasses import dataclass, field


@dataclass
class Reset:
    """The first observation of an episode and its info (a dict, sent as a JSON object).
    ``reset`` may also return a plain string: the observation with an empty info."""

    observation: str
    info: dict = field(default_factory=dict)


@dataclass
class Step:
    """The outcome of one action.

    ``terminated``: the episode ended by its own rules (win, loss, fatal format error);
    ``truncated``: it was cut short from outside the task (a turn limit)."""

    observation: str
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False
    info: dict = field(default_factory=dict)
