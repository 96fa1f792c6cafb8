#!/usr/bin/env python3
"""The first reward of each kind on a fresh machine: how long the first call waits, in a new
process with an empty compile cache (`GEODE_CACHE_DIR` pointed at a new directory).

Three first calls, each in a process of its own:

- `code:CodeContest` grading an answer that imports numpy (the sandbox's runner with numpy);
- a math grade (`geode.utils.math_grader.boxed_reward_fn`, the sandboxed math grader);
- a `tool:python` call (GEM's `PythonCodeTool`, the plain Python runner).

Each runs twice: with the package's components compiled ahead (`python -m geode.precompile`,
which `host/python/dev-install.sh` runs; the runtime reads `geode/geode-precompiled`), and
without them (`GEODE_PRECOMPILED_DIR=` set empty: everything compiles on first use, as before).
The time counted is the first call's, after `import geode`; the import is reported apart.

    python3 benches/cold_start.py [--python target/py-venv/bin/python] [--skip-uncompiled]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in the measured process: prints {"import_s": ..., "first_s": ...}.
DRIVER = r"""
import json, sys, time
started = time.perf_counter()
import geode as gem
imported = time.perf_counter()
kind = sys.argv[1]
if kind == "code":
    env = gem.make("code:CodeContest", timeout=5)
    env.reset(seed=109)  # "Sum of two" in the shipped sample
    answer = "```python\nimport numpy as np\nprint(int(np.array(input().split(), dtype=np.int64).sum()))\n```"
    _, reward, _, _, info = env.step(answer)
    assert reward == 1.0, info
elif kind == "math":
    from geode.utils.math_grader import boxed_reward_fn
    _, reward = boxed_reward_fn("So the answer is $\\boxed{\\frac{1}{2}}$.", "0.5")
    assert reward == 1.0, reward
elif kind == "tool":
    from geode.tools import PythonCodeTool
    parsed, error, observation, _ = PythonCodeTool(timeout=5).execute_action(
        "<python>print(sum(range(10)))</python>")
    assert parsed and not error and "45" in observation, observation
done = time.perf_counter()
print(json.dumps({"import_s": imported - started, "first_s": done - imported}))
"""

KINDS = {
    "code": "first code:CodeContest answer with numpy",
    "math": "first math grade",
    "tool": "first tool:python call",
}


def first_call(python, kind, precompiled):
    """One fresh process with an empty cache; returns its timings and how many files it
    compiled into the cache."""
    with tempfile.TemporaryDirectory(prefix="geode-cold-") as cache:
        env = dict(os.environ, GEODE_CACHE_DIR=cache)
        if not precompiled:
            env["GEODE_PRECOMPILED_DIR"] = ""
        out = subprocess.run([python, "-c", DRIVER, kind], env=env, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"cold_start.py: the {kind} run failed:\n{out.stderr}")
        timings = json.loads(out.stdout.strip().splitlines()[-1])
        timings["compiled"] = sum(1 for p in Path(cache).iterdir() if p.suffix == ".cwasm")
        return timings


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=str(ROOT / "target/py-venv/bin/python"),
                        help="the interpreter with geode installed (default: target/py-venv)")
    parser.add_argument("--skip-uncompiled", action="store_true",
                        help="only the run with components compiled ahead")
    args = parser.parse_args()
    sides = [True] if args.skip_uncompiled else [True, False]
    print("| first call (empty cache) | compiled ahead | compiled on first use |")
    print("|---|---|---|")
    for kind, label in KINDS.items():
        cells = []
        for precompiled in sides:
            t = first_call(args.python, kind, precompiled)
            cells.append(f"{t['first_s']:.2f} s ({t['compiled']} compiled)")
        cells += ["-"] * (2 - len(cells))
        print(f"| {label} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
