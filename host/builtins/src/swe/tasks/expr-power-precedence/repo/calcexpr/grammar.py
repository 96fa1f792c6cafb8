"""Operator table shared by the parser and the formatter."""

# operator -> (precedence, associativity); higher binds tighter
BINARY = {
    "+": (10, "left"),
    "-": (10, "left"),
    "*": (20, "left"),
    "/": (20, "left"),
    "//": (20, "left"),
    "%": (20, "left"),
    "**": (30, "left"),
}

UNARY = ("+", "-")
# precedence used when printing a unary operation
UNARY_PRECEDENCE = 25
