"""The block interface."""


class Block:
    def render(self) -> str:  # pragma: no cover - interface
        raise NotImplementedError

    def __str__(self) -> str:
        return self.render()
