"""{{name}}: two players race to a target count, adding 1, 2 or 3 in turns."""

from geode_sdk import MultiAgentEnv, Spec

PLAYERS = ["player_0", "player_1"]


def last_boxed(text):
    """The content of the last ``\\boxed{...}`` in ``text``, or None."""
    start = text.rfind("\\boxed{")
    end = text.find("}", start)
    if start < 0 or end < 0:
        return None
    return text[start + len("\\boxed{") : end].strip()


class Race(MultiAgentEnv):
    specs = [
        Spec("{{name}}:Race-v0", "Two players add 1-3 in turns; reaching 10 wins", {"target": 10}),
        Spec("{{name}}:Race-v0-long", "Two players add 1-3 in turns; reaching 21 wins", {"target": 21}),
    ]

    def __init__(self, id, config):
        self.target = config.int("target", minimum=4)
        self.count = 0
        self.winner = None

    def possible_agents(self):
        return list(PLAYERS)

    def reset(self, agents, rng):
        self.count = rng.below(3)
        self.winner = None

    def step(self, actions, agents, rng):
        ((agent, action),) = actions
        other = PLAYERS[1 - PLAYERS.index(agent)]
        move = last_boxed(action)
        if move not in ("1", "2", "3"):
            self.winner = other  # an illegal move forfeits the game
            agents.end_all({agent: -1.0, other: 1.0})
        else:
            self.count += int(move)
            if self.count >= self.target:
                self.winner = agent
                agents.end_all({agent: 1.0, other: -1.0})
        for player in PLAYERS:
            agents.info(player, "count", self.count)

    def observe(self, agent, agents):
        heard = "".join(f" {m.sender} says: {m.text}" for m in agents.messages_to(agent))
        if self.winner is not None:
            return f"Race to {self.target} over at {self.count}: {self.winner} won.{heard}"
        if agents.is_active(agent):
            turn = "Your turn: add 1, 2 or 3 with \\boxed{n}."
        else:
            turn = f"Waiting for {', '.join(agents.active)}."
        return f"Race to {self.target}: the count is {self.count}. {turn}{heard}"

    def sample_random_action(self, agent, agents, rng):
        return f"\\boxed{{{rng.below(3) + 1}}}"
