"""Fenced code blocks."""

from .base import Block


class CodeBlock(Block):
    def __init__(self, code: str, language: str = "") -> None:
        self.code = code
        self.language = language

    def render(self) -> str:
        fence = "```"
        while fence in self.code:
            fence += "`"
        return f"{fence}{self.language}\n{self.code.rstrip()}\n{fence}"
