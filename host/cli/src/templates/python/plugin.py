"""{{name}}: say whether each number dealt is even or odd."""

from geode_sdk import Env, Spec, Step

FORMAT_ERROR = -0.1


def last_boxed(text):
    """The content of the last ``\\boxed{...}`` in ``text``, or None."""
    start = text.rfind("\\boxed{")
    end = text.find("}", start)
    if start < 0 or end < 0:
        return None
    return text[start + len("\\boxed{") : end].strip()


class Parity(Env):
    specs = [
        Spec("{{name}}:Parity-v0", "Say whether numbers are even or odd, 3 rounds", {"rounds": 3}),
        Spec("{{name}}:Parity-v0-long", "Say whether numbers are even or odd, 10 rounds", {"rounds": 10}),
    ]

    def __init__(self, id, config):
        self.rounds = config.int("rounds", minimum=1)
        self.round = 0
        self.score = 0
        self.number = 0

    def ask(self, rng):
        self.number = rng.randint(0, 99)
        return (
            f"Round {self.round + 1} of {self.rounds}: is {self.number} even or odd? "
            "Answer \\boxed{even} or \\boxed{odd}."
        )

    def reset(self, rng):
        self.round = self.score = 0
        return self.ask(rng)

    def step(self, action, rng):
        answer = last_boxed(action)
        if answer not in ("even", "odd"):
            return Step("Answer \\boxed{even} or \\boxed{odd}.", FORMAT_ERROR, terminated=True)
        right = answer == ("even" if self.number % 2 == 0 else "odd")
        self.round += 1
        self.score += right
        info = {"round": self.round, "score": self.score}
        verdict = "Right." if right else "Wrong."
        if self.round == self.rounds:
            done = f"{verdict} Done: {self.score} of {self.rounds}."
            return Step(done, float(right), terminated=True, info=info)
        return Step(f"{verdict} {self.ask(rng)}", float(right), info=info)

    def sample_random_action(self, rng):
        return rng.choice(["\\boxed{even}", "\\boxed{odd}"])
