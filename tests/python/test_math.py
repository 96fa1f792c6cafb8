"""geode.utils.math_grader (GEM's gem.utils.math_grader functions on the sandboxed grader) and
the math envs through the Python package: GEM's verdicts from the golden set, thread safety,
hostile answers, and the ``gem`` import alias."""

import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "plugins/math-grader/tests/golden.json").read_text())
# The one golden case geode grades differently (tests/math_grader.rs says why).
KNOWN_DIFFERENCE = "\\boxed{99999"


@pytest.fixture(scope="module")
def mg(gem):
    from geode.utils import math_grader

    return math_grader


def test_gem_public_functions(mg):
    assert mg.boxed_reward_fn("so \\boxed{\\frac{1}{2}}", "0.5") == ({"formatted": True}, 1.0)
    assert mg.boxed_reward_fn("so \\boxed{3}", "0.5") == ({"formatted": True}, 0.0)
    assert mg.boxed_reward_fn("no box", "0.5") == ({"formatted": False}, 0.0)
    assert mg.boxed_reward_fn("\\boxed{42}", 42, correct_reward=5, incorrect_reward=-1)[1] == 5
    assert mg.boxed_reward_fn("\\boxed{x=3}", ["4", "3"])[1] == 1.0
    assert mg.extract_answer("a \\boxed{1} b \\boxed{\\frac{2}{3}}") == "\\frac{2}{3}"
    assert mg.extract_answer("\\fbox{1}") is None
    assert mg.last_boxed_only_string("x \\fbox{2}") == "\\fbox{2}"
    assert mg.remove_boxed("\\boxed{7}") == "7"
    assert mg.grade("1/2", "\\frac{1}{2}")
    assert mg.grade("\\dfrac{2}{4}", "\\frac{1}{2}", fast=False)
    assert mg.is_latex_equal("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}")
    assert mg.grade_answer_mathd("\\dfrac{1}{2}", "\\frac12")
    assert not mg.grade_answer_mathd("\\text{(C)}", "C")  # as GEM
    assert mg.grade_answer_sympy("(1, 2)", "(1,2)")
    assert mg.r1_distill_qwen_math_reward_fn("<think>\\boxed{1}</think> \\boxed{2}", "2")[1] == 1.0
    assert mg.answer_tag_reward_fn("</think> <answer>\\boxed{2}</answer>", "2")[1] == 1.0
    assert mg.answer_tag_reward_fn_for_orz("<answer>2</answer>", "2")[1] == 1.0


def test_golden_verdicts_equal_gem(mg):
    differences = []
    for case in GOLDEN:
        info, reward = mg.boxed_reward_fn(case["response"], case["truths"])
        assert info["formatted"] == (case["answer"] is not None)
        if (reward == 1.0) != case["correct"]:
            differences.append(case["response"][:40])
    assert all(d.startswith(KNOWN_DIFFERENCE) for d in differences), differences
    assert len(differences) <= len(GOLDEN) // 100


def test_grades_from_threads_without_signals(mg):
    # GEM's SIGALRM timeouts only work on the main thread; the sandbox works from any thread.
    cases = [c for c in GOLDEN if c["group"] in ("fraction", "radical", "interval")]
    with ThreadPoolExecutor(4) as pool:
        rewards = list(pool.map(lambda c: mg.boxed_reward_fn(c["response"], c["truths"])[1], cases))
    assert [r == 1.0 for r in rewards] == [c["correct"] for c in cases]


def _timed(mg, response):
    started = time.perf_counter()
    return mg.judge("boxed_reward", response, "1"), time.perf_counter() - started


def test_hostile_answers_end_fast_with_zero(mg):
    for answer in ("9^{9^{9^{9}}}", "(10^6)!", "x+" * 2500 + "x", "(" * 500 + "1" + ")" * 500):
        response = f"\\boxed{{{answer}}}"
        (formatted, correct, _, status, fuel), seconds = _timed(mg, response)
        assert formatted and not correct, (answer[:20], status)
        assert fuel <= 1_600_000_000
        if seconds >= 2.0:
            # The budget is fuel; wall time also counts whatever else loads the machine. Once
            # more, and the same verdict for the same fuel.
            (_, again, _, _, fuel_again), seconds = _timed(mg, response)
            assert (again, fuel_again) == (correct, fuel)
        assert seconds < 2.0, (answer[:20], seconds)
    assert mg.judge("boxed_reward", "\\boxed{1/2}", "0.5", fuel=1000)[3] == "out_of_fuel"


def test_gem_alias_reaches_the_same_module(gem, mg):
    import importlib

    try:
        alias = importlib.import_module("gem.utils.math_grader")
    except ImportError:
        pytest.skip("GEM itself is installed: `gem` stays GEM's")
    if alias is not mg:
        pytest.skip("GEM itself is installed: `gem` stays GEM's")
    assert alias.boxed_reward_fn is mg.boxed_reward_fn


def test_math_env_through_make(gem):
    env = gem.make("eval:AIME24")
    obs, info = env.reset()
    assert "3 or 5" in obs and info == {}
    obs, reward, terminated, truncated, info = env.step("So \\boxed{46}.")
    assert (reward, terminated, truncated, info["correct"]) == (1.0, True, True, True)
    assert obs == "<｜TERMINAL_STATE｜>"
    env = gem.make("math:GSM8K", use_format_error_reward=True)
    env.reset(seed=0)
    assert env.step("14")[1] == -0.1
