"""GEM's grading entry points (`grade`, `boxed_reward_fn`) on top of the three stages: MATH
string normalization, sympy equality, and (unless `fast`) math-verify."""

from .extract import extract_answer
from .mathd import normalize_mathd
from .sympy_stage import grade_sympy
from .verify_stage import latex_equal


def grade_mathd(given, truth):
    """GEM's `grade_answer_mathd`: equal after Hendrycks' MATH normalization."""
    return normalize_mathd(truth) == normalize_mathd(given)


def grade(given, truth, fast=True):
    """GEM's `grade(model_answer, gt_answer, fast)`. A ground truth with a `\\boxed{}` is
    replaced by what it boxes first."""
    if "\\boxed" in truth:
        truth = extract_answer(truth)
    if truth is None:
        return False
    if grade_mathd(given, truth) or grade_sympy(given, truth):
        return True
    return not fast and latex_equal(given, truth)


def boxed_reward(response, truths, fast=False):
    """GEM's `boxed_reward_fn` for ground truths `truths` (any may match): returns
    (formatted, correct, extracted answer)."""
    answer = extract_answer(response)
    if answer is None:
        return False, False, None
    correct = any(grade(answer, truth, fast) for truth in truths)
    return True, correct, answer
