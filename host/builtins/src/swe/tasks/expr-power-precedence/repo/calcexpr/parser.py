"""Precedence climbing parser."""

from typing import List

from .ast import BinOp, Call, Name, Node, Num, UnaryOp
from .errors import ParseError
from .grammar import BINARY, UNARY
from .tokens import Token, tokenize


class Parser:
    def __init__(self, tokens: List[Token]) -> None:
        self.tokens = tokens
        self.index = 0

    def peek(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def expect(self, value: str) -> Token:
        token = self.advance()
        if token.value != value:
            raise ParseError(f"expected {value!r} at position {token.pos}, got {token.value!r}")
        return token

    def parse(self) -> Node:
        node = self.expression(0)
        token = self.peek()
        if token.kind != "end":
            raise ParseError(f"unexpected {token.value!r} at position {token.pos}")
        return node

    def expression(self, min_precedence: int) -> Node:
        left = self.unary()
        while True:
            token = self.peek()
            if token.kind != "op" or token.value not in BINARY:
                return left
            precedence, assoc = BINARY[token.value]
            if precedence < min_precedence:
                return left
            self.advance()
            next_min = precedence + 1 if assoc == "left" else precedence
            left = BinOp(token.value, left, self.expression(next_min))

    def unary(self) -> Node:
        token = self.peek()
        if token.kind == "op" and token.value in UNARY:
            self.advance()
            return UnaryOp(token.value, self.unary())
        return self.primary()

    def primary(self) -> Node:
        token = self.advance()
        if token.kind == "number":
            text = token.value
            is_float = any(c in text for c in ".eE")
            return Num(float(text) if is_float else int(text))
        if token.kind == "name":
            if self.peek().value == "(":
                return Call(token.value, self.arguments())
            return Name(token.value)
        if token.value == "(":
            node = self.expression(0)
            self.expect(")")
            return node
        what = "end of input" if token.kind == "end" else repr(token.value)
        raise ParseError(f"unexpected {what} at position {token.pos}")

    def arguments(self):
        self.expect("(")
        args = []
        if self.peek().value != ")":
            args.append(self.expression(0))
            while self.peek().value == ",":
                self.advance()
                args.append(self.expression(0))
        self.expect(")")
        return tuple(args)


def parse(text: str) -> Node:
    return Parser(tokenize(text)).parse()
