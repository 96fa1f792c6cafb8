"""Safe arithmetic expression evaluation."""

from .errors import CalcError, EvalError, ParseError
from .evaluator import evaluate, evaluate_node
from .format import to_infix
from .parser import parse
from .tokens import tokenize

__all__ = [
    "CalcError",
    "EvalError",
    "ParseError",
    "evaluate",
    "evaluate_node",
    "parse",
    "to_infix",
    "tokenize",
]
