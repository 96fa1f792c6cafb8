"""Records GEM's verdicts on the golden cases (cases.py) into golden.json, for
tests/math_grader.rs to replay without GEM.

Run with a Python that has GEM and its grader's dependencies (`pip install gem-llm pylatexenc
math-verify`; benches/gem_side_by_side.py makes one in target/bench-venv):

    target/bench-venv/bin/python plugins/math-grader/tests/record_golden.py

GEM's verdict is what its MathEnv.step computes: `boxed_reward_fn(response, truth,
fast=False)` for each ground truth (a list: the first match wins; a number: its str()),
in a worker process the env waits on for 1 s. Each case runs in a worker here too, waited on for
up to LIMIT seconds: `seconds` is how long GEM took, `timed_out` says it never finished, and
`correct` is the verdict GEM's env gives (false past 1 s, as its `res.get(timeout=1)`).
"""

import json
import multiprocessing
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from cases import all_cases  # noqa: E402

LIMIT = 5.0
ENV_TIMEOUT = 1.0


def _truths(truth):
    return [str(t) for t in truth] if isinstance(truth, list) else [str(truth)]


def _gem_verdict(response, truth):
    from gem.utils.math_grader import boxed_reward_fn, extract_answer

    started = time.perf_counter()
    error = None
    correct = False
    try:
        for one in _truths(truth):
            _, reward = boxed_reward_fn(response, one, fast=False, correct_reward=1, incorrect_reward=0)
            if reward == 1:
                correct = True
                break
    except Exception as exc:  # noqa: BLE001 - GEM's env would raise; recorded as incorrect
        error = f"{type(exc).__name__}: {exc}"[:200]
    seconds = time.perf_counter() - started
    return correct, error, seconds, extract_answer(response)


def main():
    cases = all_cases()
    records = []
    pool = multiprocessing.Pool(1)
    for index, (group, response, truth) in enumerate(cases):
        pending = pool.apply_async(_gem_verdict, (response, truth))
        try:
            correct, error, seconds, answer = pending.get(timeout=LIMIT)
            timed_out = False
        except multiprocessing.TimeoutError:
            pool.terminate()
            pool = multiprocessing.Pool(1)
            correct, error, seconds, timed_out = False, None, LIMIT, True
            from gem.utils.math_grader import extract_answer

            answer = extract_answer(response)
        records.append(
            {
                "group": group,
                "response": response,
                "truth": truth,
                "truths": _truths(truth),
                "answer": answer,
                "correct": bool(correct) and seconds <= ENV_TIMEOUT,
                "untimed_correct": bool(correct),
                "seconds": round(seconds, 4),
                "timed_out": timed_out,
                "error": error,
            }
        )
        print(index, group, records[-1]["correct"], round(seconds, 3), file=sys.stderr)
    pool.terminate()
    out = HERE / "golden.json"
    out.write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(records)} cases -> {out}")


if __name__ == "__main__":
    main()
