"""Records GEM's verdicts on the fast-path cases (fast_path_cases.py) into fast_path.json, for
the grader's tests to replay without GEM (as record_golden.py does for golden.json):

    target/bench-venv/bin/python plugins/math-grader/tests/record_fast_path.py

Each verdict is `boxed_reward_fn(response, truth, fast=False)` over the ground truths in order,
first match wins, with the time GEM took; `correct` is false past GEM's 1 s, as in its env.
"""

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fast_path_cases import all_cases  # noqa: E402

ENV_TIMEOUT = 1.0


def main():
    from gem.utils.math_grader import boxed_reward_fn, extract_answer

    records = []
    for response, truths in all_cases():
        started = time.perf_counter()
        correct = False
        for truth in truths:
            if boxed_reward_fn(response, truth, fast=False)[1] == 1.0:
                correct = True
                break
        seconds = time.perf_counter() - started
        records.append(
            {
                "response": response,
                "truths": truths,
                "answer": extract_answer(response),
                "correct": correct and seconds <= ENV_TIMEOUT,
                "seconds": round(seconds, 4),
            }
        )
    out = HERE / "fast_path.json"
    out.write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(records)} cases -> {out}")


if __name__ == "__main__":
    main()
