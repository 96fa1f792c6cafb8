"""geode_sdk: environment plugins for geode, written in plain Python.

Subclass :class:`Env`, list the ids it provides in ``specs``, and build the directory with
``geode build``: the SDK turns every ``Env`` subclass of your ``plugin.py`` into a WebAssembly
component implementing geode's contract. You never see WIT or bindings::

    from geode_sdk import Env, Spec, Step

    class Coin(Env):
        specs = [Spec("demo:Coin-v0", "Call the coin flip", {"rounds": 1})]

        def __init__(self, id, config):
            self.rounds = config.int("rounds", minimum=1)

        def reset(self, rng):
            return "heads or tails?"

        def step(self, action, rng):
            won = (action.strip() == "heads") == (rng.below(2) == 0)
            return Step("flipped", 1.0 if won else 0.0, terminated=True)

        def sample_random_action(self, rng):
            return rng.choice(["heads", "tails"])

Everything random must come from the ``rng`` handed to ``reset`` and ``step``: the same seed
then replays the same episode, which the host relies on.

Multi-agent envs subclass :class:`MultiAgentEnv` instead (see :mod:`geode_sdk.multiagent`), in
a project whose ``geode.json`` says ``{"kind": "multiagent"}``.
"""

from .agents import Agents, Message
from .config import Config
from .env import Env, Spec, registered
from .errors import BadConfig, BadState, GeodeError, Internal, InvalidState, UnknownId
from .log import log
from .multiagent import AgentTurn, MultiAgentEnv, Session
from .results import Reset, Step
from .rng import Rng
from .selector import PARALLEL, SEQUENTIAL, AgentSelector

__all__ = [
    "PARALLEL",
    "SEQUENTIAL",
    "AgentSelector",
    "AgentTurn",
    "Agents",
    "BadConfig",
    "BadState",
    "Config",
    "Env",
    "GeodeError",
    "Internal",
    "InvalidState",
    "Message",
    "MultiAgentEnv",
    "Reset",
    "Rng",
    "Session",
    "Spec",
    "Step",
    "UnknownId",
    "log",
    "registered",
]
