#!/usr/bin/env python3
"""geode's vector stepping next to GEM's, in one run, on GuessTheNumber-hard.

Runs GEM's SyncVectorEnv and AsyncVectorEnv (pip `gem-llm`, installed into a private venv on
first use) and geode's sync vector env and async pool (`cargo bench --bench vector_throughput`)
with pre-generated random actions and SameStep autoreset, then prints steps/s and the ratios.

    python3 benches/gem_side_by_side.py [--envs 16,64,256] [--seconds 3]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "target" / "bench-venv"
ENV_ID = "game:GuessTheNumber-v0-hard"


def ensure_gem() -> Path:
    """A venv with gem-llm (created once; later runs reuse it)."""
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    probe = subprocess.run([str(python), "-c", "import gem"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", "gem-llm"], check=True)
    return python


GEM_RUNNER = r"""
import json, random, sys, time
import gem
env_id, n, seconds, async_mode = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4] == "async"
rng = random.Random(1234)
batches = [["\\boxed{%d}" % rng.randint(1, 50) for _ in range(n)] for _ in range(64)]
vec = gem.make_vec([env_id] * n, async_mode=async_mode, seed=0)
vec.reset(seed=0)
for b in batches[:4]:
    vec.step(b)
steps, start, i = 0, time.perf_counter(), 0
while time.perf_counter() - start < seconds:
    vec.step(batches[i % len(batches)])
    steps += n
    i += 1
print(json.dumps({"rate": steps / (time.perf_counter() - start)}))
"""


def gem_rate(python: Path, n: int, seconds: float, mode: str) -> float:
    out = subprocess.run(
        [str(python), "-c", GEM_RUNNER, ENV_ID, str(n), str(seconds), mode],
        capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])["rate"]


def geode_rates(envs: list[int], steps: int) -> dict:
    cmd = [
        "cargo", "bench", "-q", "-p", "geode-benches", "--bench", "vector_throughput", "--",
        "--json", "--envs", ",".join(map(str, envs)), "--threads", "1,2", "--steps", str(steps),
    ]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    rates = {}
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            rates[(row["envs"], row["threads"])] = row
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", default="16,64,256")
    parser.add_argument("--seconds", type=float, default=3.0, help="GEM measuring time per cell")
    parser.add_argument("--steps", type=int, default=2_000_000, help="geode steps per cell")
    args = parser.parse_args()
    envs = [int(x) for x in args.envs.split(",")]

    python = ensure_gem()
    geode = geode_rates(envs, args.steps)
    print(f"GuessTheNumber-hard, SameStep autoreset, random actions, {os.cpu_count()} cores")
    header = ("envs", "GEM sync", "GEM async", "geode sync 1T", "geode sync 2T", "geode async 2T",
              "sync/GEM", "async/GEM async", "2T/1T")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for n in envs:
        gem_sync = gem_rate(python, n, args.seconds, "sync")
        gem_async = gem_rate(python, n, args.seconds, "async")
        one, two = geode[(n, 1)], geode[(n, 2)]
        cells = [
            str(n), f"{gem_sync:,.0f}", f"{gem_async:,.0f}", f"{one['sync']:,.0f}", f"{two['sync']:,.0f}",
            f"{two['async']:,.0f}", f"{two['sync'] / gem_sync:.1f}x", f"{two['async'] / gem_async:.1f}x",
            f"{two['sync'] / one['sync']:.2f}x",
        ]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
