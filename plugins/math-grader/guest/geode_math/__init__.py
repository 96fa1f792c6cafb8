"""geode's math grader: GEM's `boxed_reward_fn` rules (MATH normalization, sympy equality,
math-verify), written for a sandbox where a fuel budget, not SIGALRM, bounds the work."""

from .extract import extract_answer, last_boxed
from .grade import boxed_reward, grade, grade_mathd, grade_sympy, latex_equal

__all__ = [
    "boxed_reward",
    "extract_answer",
    "grade",
    "grade_mathd",
    "grade_sympy",
    "last_boxed",
    "latex_equal",
]
