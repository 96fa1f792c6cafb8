"""Hostile guests in Python: each id attacks the host in one way when stepped with `go`;
`hostile-py:healthy` answers every step. The host must stop each attack with its typed error."""

from geode_sdk import Env, Spec, Step


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
