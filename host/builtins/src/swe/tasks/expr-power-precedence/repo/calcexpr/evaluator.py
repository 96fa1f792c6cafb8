"""Evaluating expression trees."""

import operator
from typing import Mapping, Union

from .ast import BinOp, Call, Name, Node, Num, UnaryOp
from .errors import EvalError
from .functions import FUNCTIONS
from .parser import parse

_BINARY = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
}
_UNARY = {"+": operator.pos, "-": operator.neg}

Number = Union[int, float]


def evaluate_node(node: Node, env: Mapping[str, Number]) -> Number:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Name):
        try:
            return env[node.id]
        except KeyError:
            raise EvalError(f"unknown name {node.id!r}") from None
    if isinstance(node, UnaryOp):
        return _UNARY[node.op](evaluate_node(node.operand, env))
    if isinstance(node, BinOp):
        left = evaluate_node(node.left, env)
        right = evaluate_node(node.right, env)
        try:
            return _BINARY[node.op](left, right)
        except ZeroDivisionError:
            raise EvalError("division by zero") from None
    if isinstance(node, Call):
        func = FUNCTIONS.get(node.func)
        if func is None:
            raise EvalError(f"unknown function {node.func!r}")
        return func(*(evaluate_node(arg, env) for arg in node.args))
    raise EvalError(f"cannot evaluate {node!r}")


def evaluate(text: str, **variables: Number) -> Number:
    return evaluate_node(parse(text), variables)
