"""Printing trees back as text with as few parentheses as needed."""

from .ast import BinOp, Call, Name, Node, Num, UnaryOp
from .grammar import BINARY, UNARY_PRECEDENCE

_ATOM = 100


def _precedence(node: Node) -> int:
    if isinstance(node, BinOp):
        return BINARY[node.op][0]
    if isinstance(node, UnaryOp):
        return UNARY_PRECEDENCE
    return _ATOM


def _wrap(node: Node, needs: bool) -> str:
    text = to_infix(node)
    return f"({text})" if needs else text


def to_infix(node: Node) -> str:
    if isinstance(node, Num):
        return repr(node.value)
    if isinstance(node, Name):
        return node.id
    if isinstance(node, Call):
        return f"{node.func}({', '.join(to_infix(a) for a in node.args)})"
    if isinstance(node, UnaryOp):
        return node.op + _wrap(node.operand, _precedence(node.operand) < UNARY_PRECEDENCE)
    precedence, assoc = BINARY[node.op]
    left_needs = _precedence(node.left) < precedence or (
        assoc == "right" and _precedence(node.left) == precedence
    )
    right_needs = _precedence(node.right) < precedence or (
        assoc == "left" and _precedence(node.right) == precedence
    )
    return f"{_wrap(node.left, left_needs)} {node.op} {_wrap(node.right, right_needs)}"
