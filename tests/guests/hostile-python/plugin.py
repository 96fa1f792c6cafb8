"""Hostile guests in Python: each id attacks the host in one way when stepped with `go`;
`hostile-py:healthy` answers every step. The host must stop each attack with its typed error.
`hostile-py:dice` is a healthy sibling whose episodes draw from the generator (see `Dice`)."""

from geode_sdk import Env, InvalidState, Reset, Spec, Step


class Hostile(Env):
    specs = [
        Spec("hostile-py:healthy", "answers every step", {}),
        Spec("hostile-py:spin", "loops forever in step", {}),
        Spec("hostile-py:memory-bomb", "allocates until memory runs out", {}),
        Spec("hostile-py:raise", "raises an uncaught exception with a message", {}),
    ]

    def __init__(self, id, config):
        self.kind = id.split(":")[1]
        self.steps = 0

    def reset(self, rng):
        return "ready"

    def step(self, action, rng):
        if self.kind == "spin":
            while True:
                self.steps += 1
        if self.kind == "memory-bomb":
            hoard = []
            while True:
                hoard.append(bytearray(1 << 20))
        if self.kind == "raise":
            raise RuntimeError("the python guest gave up")
        self.steps += 1
        return Step(f"step {self.steps} got {action}")

    def sample_random_action(self, rng):
        return "go"


class Dice(Env):
    """Rolls a die at reset and at every step; a 6 ends the episode, the fourth step truncates
    it, the action `refuse` is refused. Texts hold non-ASCII characters on purpose."""

    specs = [Spec("hostile-py:dice", "rolls a die per step", {})]

    def __init__(self, id, config):
        self.turns = 0

    def reset(self, rng):
        self.turns = 0
        roll = rng.below(6) + 1
        return Reset(f"🎲 rolled {roll}", {"roll": roll, "note": "é"})

    def step(self, action, rng):
        if action == "refuse":
            raise InvalidState("refused on purpose")
        self.turns += 1
        roll = rng.below(6) + 1
        return Step(
            f"{action} → {roll}",
            roll / 6,
            terminated=roll == 6,
            truncated=self.turns >= 4,
            info={"roll": roll, "turns": self.turns},
        )

    def sample_random_action(self, rng):
        return rng.choice(["é", "go on"])
