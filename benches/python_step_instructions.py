#!/usr/bin/env python3
"""Instructions per vector step through Python, counted by callgrind: exact where timings on a
small shared VM are not (two runs of the same binary can land 40% apart).

One process on one core (`taskset -c 0`, so the calling thread does all the work: no helper
thread, nothing to wait for) makes a vector env of GuessTheNumber-hard and steps it with
pre-generated random actions; the count of a run with 0 steps is subtracted from one with
`--steps`, which leaves the steps alone. Needs valgrind, and `target/py-venv` from
`bash host/python/dev-install.sh`. The first run compiles the plugins for valgrind's CPU.

    python3 benches/python_step_instructions.py [--envs 64] [--steps 1300] [--group 0]
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gem_side_by_side import ENV_ID, ROOT  # noqa: E402

GEODE_PYTHON = ROOT / "target" / "py-venv" / "bin" / "python"

RUNNER = r"""
import random, sys, types
sys.modules.setdefault("requests", types.ModuleType("requests"))
import geode as gem
env_id, n, steps, group = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(1234)
batches = [["\\boxed{%d}" % rng.randint(1, 50) for _ in range(n)] for _ in range(64)]
extra = {"group_size": group} if group > 0 else {}
vec = gem.make_vec([env_id] * n, seed=0, **extra)
vec.reset(seed=0)
for i in range(steps):
    vec.step(batches[i % 64])
"""


def instructions(n: int, steps: int, group: int) -> int:
    """Instructions the whole process ran for `steps` steps of `n` envs."""
    command = [
        "taskset", "-c", "0", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        str(GEODE_PYTHON), "-c", RUNNER, ENV_ID, str(n), str(steps), str(group),
    ]
    run = subprocess.run(command, capture_output=True, text=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or not found:
        sys.exit(f"the callgrind run failed (exit {run.returncode}):\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=1300)
    parser.add_argument("--group", type=int, default=0, help="envs per unit (0: default)")
    args = parser.parse_args()
    if not GEODE_PYTHON.exists():
        sys.exit("target/py-venv is missing: run `bash host/python/dev-install.sh` first")
    base = instructions(args.envs, 0, args.group)
    total = instructions(args.envs, args.steps, args.group)
    per_step = (total - base) / args.steps
    print(f"{ENV_ID}, {args.envs} envs, group_size {args.group}, one core, {args.steps} steps")
    print(f"instructions per step: {per_step:,.0f} ({per_step / args.envs:,.0f} per env)")


if __name__ == "__main__":
    main()
