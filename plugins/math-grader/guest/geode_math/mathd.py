"""Hendrycks' MATH answer normalization, as GEM's `mathd_normalize_answer` applies it: the
strict string-equality stage of grading."""

import re

from .units import UNIT_WORDS

_TEXT_WRAPPED = re.compile(r"^\\text\{(?P<text>.+?)\}$")
_ARRAY_BEGIN = re.compile(r"\\begin\{array\}\{.*?\}")
_ARRAY_END = re.compile(r"\\end\{array\}")
_TRAILING_TEXT = re.compile(r"\\text{.*?}$")
# Each pattern with the text it needs to find: the word itself when it holds no `.` (the only
# regex syntax in the list), so that a word absent from the answer costs a substring test.
_UNIT_PATTERNS = tuple(
    (None if "." in word else word, re.compile(r"(^|\W)" + word + r"($|\W)"))
    for word in UNIT_WORDS
)
# Matches wherever any one of `_UNIT_PATTERNS` matches (the same words, as one alternation): an
# answer it does not match is left unchanged by every unit pattern, so the per-word passes (over
# 500 regex substitutions, most of the stage's cost) are skipped for it.
_ANY_UNIT = re.compile(r"(?:^|\W)(?:" + "|".join(UNIT_WORDS) + r")(?:$|\W)")


class _Unchanged(Exception):
    """Raised where GEM's normalization fails part-way (it then keeps the answer as it was)."""


def normalize_mathd(answer):
    """The MATH-normalized form of `answer` (None stays None). An answer the rules cannot
    handle comes back stripped, with an enclosing `\\text{}` removed, and otherwise as is."""
    if answer is None:
        return None
    answer = answer.strip()
    try:
        wrapped = _TEXT_WRAPPED.search(answer)
        if wrapped is not None:
            answer = wrapped.group("text").strip()
        return _canonical(answer)
    except Exception:  # noqa: BLE001 - GEM keeps the answer when any rule fails
        return answer


def _expand_fracs(text):
    """`\\frac12` -> `\\frac{1}{2}`, `\\frac1{2}` -> `\\frac{1}{2}`; the input unchanged when a
    `\\frac` has fewer than two characters after it."""
    head, *tails = text.split("\\frac")
    out = [head]
    for tail in tails:
        out.append("\\frac")
        if tail[0] == "{":
            out.append(tail)
            continue
        if len(tail) < 2:
            return text
        first, second, rest = tail[0], tail[1], tail[2:]
        if second == "{":
            out.append("{" + first + "}" + second + rest)
        else:
            out.append("{" + first + "}{" + second + "}" + rest)
    return "".join(out)


def _slash_to_frac(text):
    """`3/4` -> `\\frac{3}{4}` when both sides are plain integers written canonically."""
    parts = text.split("/")
    if len(parts) != 2:
        return text
    try:
        numerator, denominator = int(parts[0]), int(parts[1])
    except ValueError:
        return text
    if text != f"{numerator}/{denominator}":
        return text
    return "\\frac{" + str(numerator) + "}{" + str(denominator) + "}"


def _drop_text_units(text):
    """What precedes `\\text{ ` (a unit); fails on more than one such unit."""
    if "\\text{ " not in text:
        return text
    parts = text.split("\\text{ ")
    if len(parts) != 2:
        raise _Unchanged
    return parts[0]


def _brace_sqrt(text):
    """`\\sqrt3` -> `\\sqrt{3}`; fails on a `\\sqrt` that ends the text."""
    if "\\sqrt" not in text:
        return text
    head, *tails = text.split("\\sqrt")
    out = [head]
    for tail in tails:
        if tail[0] == "{":
            out.append("\\sqrt" + tail)
        else:
            out.append("\\sqrt{" + tail[0] + "}" + tail[1:])
    return "".join(out)


def _canonical(text):
    text = text.replace("\n", "").replace("\\!", "").replace("\\\\", "\\")
    text = _ARRAY_BEGIN.sub(r"\\begin{pmatrix}", text)
    text = _ARRAY_END.sub(r"\\end{pmatrix}", text)
    text = text.replace("bmatrix", "pmatrix")
    text = text.replace("tfrac", "frac").replace("dfrac", "frac")
    text = text.replace("\\neq", "\\ne").replace("\\leq", "\\le").replace("\\geq", "\\ge")
    text = text.replace("\\left", "").replace("\\right", "")
    without_unit = _TRAILING_TEXT.sub("", text).strip()
    if without_unit and without_unit != text:
        text = without_unit
    for _ in range(2 if _ANY_UNIT.search(text) else 0):
        for word, pattern in _UNIT_PATTERNS:
            if word is not None and word not in text:
                continue  # the pattern cannot match: it would leave the text as it is
            stripped = pattern.sub(r"\1\2", text)
            if stripped:
                text = stripped
    text = text.replace("^{\\circ}", "").replace("^\\circ", "")
    text = text.replace("\\$", "")
    text = _drop_text_units(text)
    text = text.replace("\\%", "")
    text = text.replace(" .", " 0.").replace("{.", "{0.")
    if not text:
        return text
    if text[0] == ".":
        text = "0" + text
    sides = text.split("=")
    if len(sides) == 2 and len(sides[0]) <= 2:
        text = sides[1]
    text = _brace_sqrt(text)
    text = text.replace(" ", "")
    text = _expand_fracs(text)
    if text == "0.5":
        text = "\\frac{1}{2}"
    return _slash_to_frac(text)
