"""Block quotes."""

from .base import Block


class Quote(Block):
    def __init__(self, text: str) -> None:
        self.text = text

    def render(self) -> str:
        return "\n".join(("> " + line).rstrip() for line in self.text.split("\n"))
