"""Twenty-Four: combine the numbers dealt with + - * / and parentheses to hit the target.

A classic arithmetic-reasoning task for language models: every hand dealt has a solution,
answers are checked exactly (with fractions, so 8 / (3 - 8 / 3) is 24), and a wrong try costs
one of a few attempts.
"""

import ast
import itertools
from fractions import Fraction

from geode_sdk import Env, Spec, Step

FORMAT_ERROR = -0.1
OPERATORS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}


def last_boxed(text):
    """The content of the last ``\\boxed{...}`` in ``text``, or None."""
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    end = text.find("}", start)
    return None if end < 0 else text[start + len("\\boxed{") : end].strip()


def evaluate(expression):
    """(value, numbers used) of an arithmetic expression, or None if it is not one."""
    try:
        for sign, ascii_sign in (("×", "*"), ("÷", "/"), ("−", "-")):
            expression = expression.replace(sign, ascii_sign)
        tree = ast.parse(expression, mode="eval")
    except (SyntaxError, ValueError):
        return None
    numbers = []

    def walk(node):
        if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Div) and right == 0:
                raise ZeroDivisionError
            return OPERATORS[type(node.op)](left, right)
        if isinstance(node, ast.Constant) and type(node.value) is int:
            numbers.append(node.value)
            return Fraction(node.value)
        raise ValueError("not an arithmetic expression")

    try:
        return walk(tree.body), sorted(numbers)
    except (ValueError, ZeroDivisionError, RecursionError):
        return None


def solve(numbers, target):
    """One expression over ``numbers`` worth ``target``, or None."""
    items = [(Fraction(n), str(n)) for n in numbers]

    def search(items):
        if len(items) == 1:
            return items[0][1] if items[0][0] == target else None
        for i, j in itertools.permutations(range(len(items)), 2):
            (a, x), (b, y) = items[i], items[j]
            rest = [items[k] for k in range(len(items)) if k not in (i, j)]
            options = [(a + b, f"({x} + {y})"), (a - b, f"({x} - {y})"), (a * b, f"({x} * {y})")]
            if b != 0:
                options.append((a / b, f"({x} / {y})"))
            for value in options:
                found = search(rest + [value])
                if found:
                    return found
        return None

    found = search(items)
    return found[1:-1] if found and found.startswith("(") else found


class TwentyFour(Env):
    specs = [
        Spec(
            "example:TwentyFour-v0",
            "Make 24 from four numbers 1-9 with + - * /; three attempts",
            {"count": 4, "max_number": 9, "target": 24, "attempts": 3},
        ),
        Spec(
            "example:TwentyFour-v0-hard",
            "Make 24 from four numbers 1-13 with + - * /; one attempt",
            {"count": 4, "max_number": 13, "target": 24, "attempts": 1},
        ),
    ]

    def __init__(self, id, config):
        self.count = config.int("count", minimum=2, maximum=6)
        self.max_number = config.int("max_number", minimum=1, maximum=100)
        self.target = config.int("target")
        self.attempts = config.int("attempts", minimum=1)
        self.numbers = []
        self.left = 0

    def reset(self, rng):
        while True:
            numbers = sorted(rng.randint(1, self.max_number) for _ in range(self.count))
            if solve(numbers, self.target):
                break
        self.numbers, self.left = numbers, self.attempts
        listed = ", ".join(map(str, numbers))
        return (
            f"Use each of the numbers {listed} exactly once, with + - * / and parentheses, "
            f"to make {self.target}. You have {self.attempts} attempt(s). "
            "Answer with the expression in \\boxed{}."
        )

    def step(self, action, rng):
        expression = last_boxed(action)
        parsed = evaluate(expression) if expression else None
        if parsed is None:
            return Step("Answer with an arithmetic expression in \\boxed{}.", FORMAT_ERROR, True)
        value, used = parsed
        self.left -= 1
        info = {"numbers": self.numbers, "attempts_left": self.left}
        if used != self.numbers:
            verdict = f"Use exactly the numbers {self.numbers}."
        elif value == self.target:
            return Step(f"Correct: {expression} = {self.target}.", 1.0, True, info=info)
        else:
            verdict = f"{expression} = {value}, not {self.target}."
        return Step(verdict, 0.0, terminated=self.left == 0, info=info)

    def sample_random_action(self, rng):
        if rng.random() < 0.5:
            return f"\\boxed{{{solve(self.numbers, self.target)}}}"
        numbers = list(self.numbers)
        rng.shuffle(numbers)
        expression = str(numbers[0])
        for n in numbers[1:]:
            expression = f"({expression} {rng.choice('+-*/')} {n})"
        return f"\\boxed{{{expression}}}"
