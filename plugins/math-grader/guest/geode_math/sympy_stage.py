"""The sympy stage of grading (GEM's `grade_answer_sympy`): a looser normalization, tuples and
intervals compared element by element, and sympy's `simplify` on the difference of the two
answers, guarded against expressions that make sympy blow up."""

import re

import sympy
from pylatexenc import latex2text, latexwalker
from sympy.parsing import sympy_parser

from .units import SYMPY_UNITS

_TEXT_WRAPPED = re.compile(r"^\\text\{(?P<text>.+?)\}$")
_UNIT_PATTERNS = tuple(
    (unit, re.compile(unit + r"(es)?(s)? *(\^[0-9]+)?")) for unit in SYMPY_UNITS
)
_DEGREE = re.compile(r"\^ *\\circ")
_THIN_SPACE_COMMA = re.compile(r",\\! *")
_MINUS_SPACE = re.compile(r"- *")
_MIXED_NUMBER = re.compile(r"([0-9]) +([0-9])")
_THOUSANDS = re.compile(r"(\d)(,)(\d\d\d)($|\D)")
_FRACTION = re.compile(r"^-?[0-9]+.?/0*[1-9][0-9]*.?$")
_POWER_CHAINS = (re.compile(r"\^[0-9]+\^"), re.compile(r"\^[0-9][0-9]+"))
_RISKY_POWERS = ("^{", "^(")
_BRACKETS = "()[]"
_SYMBOLS = (("√", "sqrt"), ("π", "pi"), ("∞", "inf"), ("∪", "U"), ("·", "*"), ("×", "*"))
_TRANSFORMATIONS = sympy_parser.standard_transformations + (
    sympy_parser.implicit_multiplication_application,
)


def _parses_as_float(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def _near_int(value):
    try:
        return abs(value - int(round(value))) <= 1e-7
    except Exception:  # noqa: BLE001 - inf and nan are not integers
        return False


def strip_thousands(text):
    """`1,234,567` -> `1234567`, leaving commas that separate tuple elements."""
    while True:
        changed = _THOUSANDS.sub(r"\1\3\4", text)
        if changed == text:
            return changed
        text = changed


def text_is_int(text):
    """Whether `text` reads as a number within 1e-7 of an integer (thousands commas allowed)."""
    try:
        return _near_int(float(strip_thousands(text)))
    except Exception:  # noqa: BLE001
        return False


def _as_int_text(text):
    return str(int(float(text.replace(",", ""))))


# pylatexenc's default macro databases, which `LatexNodes2Text()` and `LatexWalker()` would
# otherwise build anew (hundreds of spec objects each) on every call; both only read them.
_TEXT_DB = latex2text.get_default_latex_context_db()
_WALKER_DB = latexwalker.get_default_latex_context_db()


def _latex_to_text(text):
    """Plain text for a LaTeX answer (`\\frac{1}{2}` -> `1/2`, `\\pi` -> `pi`)."""
    text = text.replace("\\tfrac", "\\frac").replace("\\dfrac", "\\frac")
    text = text.replace("\\frac", " \\frac")
    text = latex2text.LatexNodes2Text(latex_context=_TEXT_DB).latex_to_text(
        text, latex_context=_WALKER_DB
    )
    for symbol, name in _SYMBOLS:
        text = text.replace(symbol, name)
    return text.strip()


def normalize_sympy(answer):
    """The normalized form the sympy stage compares (None stays None)."""
    if answer is None:
        return None
    wrapped = _TEXT_WRAPPED.search(answer)
    if wrapped is not None:
        answer = wrapped.group("text")
    answer = answer.replace("\\%", "%").replace("\\$", "$")
    answer = answer.replace("$", "").replace("%", "")
    answer = answer.replace(" or ", " , ").replace(" and ", " , ")
    answer = answer.replace("million", "*10^6").replace("billion", "*10^9")
    answer = answer.replace("trillion", "*10^12")
    for unit, pattern in _UNIT_PATTERNS:
        if unit in answer:  # each pattern needs its unit's letters
            answer = pattern.sub("", answer)
    answer = _DEGREE.sub("", answer)
    if answer and answer[0] == "{" and answer[-1] == "}":
        answer = answer[1:-1]
    answer = _THIN_SPACE_COMMA.sub("", answer)
    if _parses_as_float(answer) and _near_int(float(answer)):
        answer = str(int(round(float(answer))))
    if "\\" in answer:
        try:
            answer = _latex_to_text(answer)
        except Exception:  # noqa: BLE001 - keep the LaTeX when pylatexenc cannot read it
            pass
    answer = _MINUS_SPACE.sub("-", answer)
    answer = _MIXED_NUMBER.sub(r"\1+\2", answer)
    answer = answer.replace(" ", "").replace("{", "").replace("}", "").lower()
    if text_is_int(answer):
        answer = _as_int_text(answer)
    return answer


def _letters(expression):
    expression = expression.replace("sqrt", "").replace("frac", "")
    return len({char for char in expression if char.isalpha()})


def safe_for_sympy(expression):
    """GEM's guard: at most two distinct letters, no braced or parenthesized exponents, no
    chained or multi-digit exponents (sympy can take forever on those)."""
    if _letters(expression) > 2:
        return False
    if any(risky in expression for risky in _RISKY_POWERS):
        return False
    return not any(pattern.search(expression) for pattern in _POWER_CHAINS)


def equal_under_sympy(truth, given):
    """Whether sympy simplifies `(truth)-(given)` to 0 (False when the guard refuses it or
    sympy fails)."""
    difference = f"({truth})-({given})"
    if not safe_for_sympy(difference):
        return False
    try:
        parsed = sympy_parser.parse_expr(
            difference.replace("^", "**"), transformations=_TRANSFORMATIONS
        )
        return sympy.simplify(parsed) == 0
    except Exception:  # noqa: BLE001 - an answer sympy cannot read is not equal
        return False


def split_elements(expression):
    """The elements of a tuple or interval (`(1,2]` -> `1`, `2`); a single element otherwise."""
    expression = strip_thousands(expression)
    if not expression:
        return []
    inner = expression[1:-1]
    if (
        len(expression) > 2
        and expression[0] in _BRACKETS
        and expression[-1] in _BRACKETS
        and not any(bracket in inner for bracket in _BRACKETS)
    ):
        return [element.strip() for element in inner.split(",")]
    return [expression]


def _is_fraction(text):
    return _FRACTION.search(text) is not None


def _elements_equal(truth, given):
    if _is_fraction(truth) and _is_fraction(given):
        # Unreduced fractions must match as written: no simplification.
        return truth == given
    if text_is_int(truth) != text_is_int(given):
        # An integer ground truth needs an integer answer (and the other way round).
        return False
    return equal_under_sympy(truth, given)


def grade_sympy(given, truth):
    """GEM's `grade_answer_sympy(given, truth)`."""
    truth = normalize_sympy(truth)
    given = normalize_sympy(given)
    if truth is None:
        return False
    if truth == given:
        return True
    if not given:
        return False
    truths = split_elements(truth)
    givens = split_elements(given)
    if len(truths) > 1 and (truth[0] != given[0] or truth[-1] != given[-1]):
        return False
    if len(truths) != len(givens):
        return False
    return all(_elements_equal(t, g) for t, g in zip(truths, givens))
