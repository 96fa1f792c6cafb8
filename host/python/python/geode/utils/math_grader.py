"""GEM's ``gem.utils.math_grader`` functions on geode's sandboxed math grader.

The rules are GEM's (``boxed_reward_fn(fast=False)``: Hendrycks' MATH normalization, sympy
equality with its guards, math-verify), but every grading call runs in a fresh instance of a
CPython WebAssembly component under a fuel budget instead of SIGALRM or a process pool: it works
from any thread, never hangs, and gives the same verdict on a loaded machine. An answer whose
grading runs out of budget (default about one second of CPU) is incorrect, as GEM's timeout
makes it. The GIL is released while an answer is graded.

    from geode.utils.math_grader import boxed_reward_fn   # or gem.utils.math_grader
    info, reward = boxed_reward_fn("... so \\\\boxed{\\\\frac{1}{2}}", "0.5")
"""

from typing import List, Optional, Tuple, Union

from geode import _geode

__all__ = [
    "answer_tag_reward_fn",
    "answer_tag_reward_fn_for_orz",
    "boxed_reward_fn",
    "extract_answer",
    "extract_boxed_answer",
    "grade",
    "grade_answer_mathd",
    "grade_answer_sympy",
    "is_latex_equal",
    "judge",
    "last_boxed_only_string",
    "r1_distill_qwen_math_reward_fn",
    "remove_boxed",
]

Truth = Union[str, int, float, List[Union[str, int, float]]]


def _truths(truth: Truth) -> List[str]:
    if isinstance(truth, list):
        return [str(t) for t in truth]
    return [str(truth)]


def judge(check: str, text: str, truths: Optional[Truth] = None, fuel: Optional[int] = None) -> Tuple[bool, bool, Optional[str], str, int]:
    """One sandboxed grading call: (formatted, correct, extracted answer, status, fuel used).

    ``check`` is ``boxed_reward``, ``boxed_reward_fast``, ``grade``, ``grade_fast``,
    ``latex_equal``, ``mathd``, ``sympy`` or ``extract``; ``status`` is ``done``,
    ``out_of_fuel``, ``memory``, ``deadline`` or ``failed: <reason>``."""
    return _geode.grade_math(check, text, [] if truths is None else _truths(truths), fuel)


def last_boxed_only_string(string: str) -> Optional[str]:
    """The last ``\\boxed...{...}`` command of ``string`` (``\\fbox`` when it has no
    ``\\boxed``), braces balanced; None when there is none or it never closes."""
    start = string.rfind("\\boxed")
    if start < 0:
        start = string.rfind("\\fbox")
        if start < 0:
            return None
    depth = 0
    for position in range(start, len(string)):
        if string[position] == "{":
            depth += 1
        elif string[position] == "}":
            depth -= 1
            if depth == 0:
                return string[start : position + 1]
    return None


def remove_boxed(s: Optional[str]) -> Optional[str]:
    """The inside of ``\\boxed{...}``; None for anything else."""
    if s is None or not s.startswith("\\boxed{") or not s.endswith("}"):
        return None
    return s[len("\\boxed{") : -1]


def extract_boxed_answer(solution: str) -> Optional[str]:
    """The inside of the last ``\\boxed{}`` of ``solution``."""
    return remove_boxed(last_boxed_only_string(solution))


def extract_answer(passage: str) -> Optional[str]:
    """GEM's ``extract_answer``: the last boxed answer, or None without any ``\\boxed``."""
    return judge("extract", passage)[2]


def grade(model_answer: str, gt_answer: str, fast: bool = True) -> bool:
    """GEM's ``grade``: MATH normalization or sympy equality, plus math-verify unless ``fast``."""
    return judge("grade_fast" if fast else "grade", model_answer, [gt_answer])[1]


def is_latex_equal(given_answer: str, ground_truth: str) -> bool:
    """GEM's ``is_latex_equal``: normalized strings, then math-verify."""
    return judge("latex_equal", given_answer, [ground_truth])[1]


def grade_answer_mathd(given_answer: str, ground_truth: str) -> bool:
    """GEM's ``grade_answer_mathd``: equal after Hendrycks' MATH normalization."""
    return judge("mathd", given_answer, [ground_truth])[1]


def grade_answer_sympy(given_answer: str, ground_truth: str) -> bool:
    """GEM's ``grade_answer_sympy``: normalization, tuples, sympy equality."""
    return judge("sympy", given_answer, [ground_truth])[1]


def _reward(correct: bool, correct_reward, incorrect_reward):
    return {"formatted": True}, (correct_reward if correct else incorrect_reward)


def boxed_reward_fn(model_response: str, gt_answer: Truth, fast: bool = False, correct_reward=1.0, incorrect_reward=0.0):
    """GEM's ``boxed_reward_fn``: ``({"formatted": bool}, reward)`` for the last ``\\boxed{}``
    of ``model_response`` against ``gt_answer`` (a string, number, or list: any may match)."""
    check = "boxed_reward_fast" if fast else "boxed_reward"
    formatted, correct, _, _, _ = judge(check, model_response, _truths(gt_answer))
    if not formatted:
        return {"formatted": False}, incorrect_reward
    return _reward(correct, correct_reward, incorrect_reward)


def r1_distill_qwen_math_reward_fn(model_response: str, gt_answer: Truth, fast: bool = False, correct_reward=1.0, incorrect_reward=0.0):
    """GEM's ``r1_distill_qwen_math_reward_fn``: the boxed reward of what follows the one
    ``</think>``; unformatted (0.0) without exactly one."""
    parts = model_response.split("</think>")
    if len(parts) != 2:
        return {"formatted": False}, 0.0
    return boxed_reward_fn(parts[1], gt_answer, fast, correct_reward, incorrect_reward)


def _tagged_reward(model_response, gt_answer, fast, correct_reward, incorrect_reward):
    answer = model_response.split("<answer>")[-1].replace("</answer>", "")
    if "\\boxed" in answer:
        answer = extract_answer(answer)
        if answer is None:
            return {"formatted": True}, incorrect_reward
    correct = any(grade(answer, truth, fast) for truth in _truths(gt_answer))
    return _reward(correct, correct_reward, incorrect_reward)


def answer_tag_reward_fn(model_response: str, gt_answer: Truth, fast: bool = False, correct_reward=1.0, incorrect_reward=0.0):
    """GEM's ``answer_tag_reward_fn``: needs ``</think> <answer>`` and ``</answer>``."""
    if "</think> <answer>" in model_response and "</answer>" in model_response:
        return _tagged_reward(model_response, gt_answer, fast, correct_reward, incorrect_reward)
    return {"formatted": False}, incorrect_reward


def answer_tag_reward_fn_for_orz(model_response: str, gt_answer: Truth, fast: bool = False, correct_reward=1.0, incorrect_reward=0.0):
    """GEM's ``answer_tag_reward_fn_for_orz``: needs ``<answer>`` and ``</answer>``."""
    if "<answer>" in model_response and "</answer>" in model_response:
        return _tagged_reward(model_response, gt_answer, fast, correct_reward, incorrect_reward)
    return {"formatted": False}, incorrect_reward
