"""Exceptions."""


class CalcError(Exception):
    """Base class."""


class ParseError(CalcError):
    """The text is not a valid expression."""


class EvalError(CalcError):
    """The expression could not be evaluated."""
