#!/usr/bin/env python3
"""geode's vector stepping next to GEM's, in one run, on GuessTheNumber-hard.

Runs GEM's SyncVectorEnv and AsyncVectorEnv (pip `gem-llm`, installed into a private venv on
first use) and geode's sync vector env and async pool (`cargo bench --bench vector_throughput`)
with pre-generated random actions and SameStep autoreset, then prints steps/s and the ratios.
The last column is the 2T/1T ratio of work that shares nothing (two vectors, one thread each):
how far two cores of this machine scale at all for that step size.

    python3 benches/gem_side_by_side.py [--envs 16,64,256] [--seconds 3] [--repeat 3] [--group 0]

Two-thread rates on small VMs vary from run to run (the same binary can land ~40% apart), so
every cell is measured `--repeat` times: the table shows medians, and the ranges follow it.
"""

import argparse
import json
import os
import random
import statistics
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


def bench_rows(envs: list[int], steps: int, group: int, *flags: str) -> list[dict]:
    """The JSON rows of one `vector_throughput` run over `envs` with `flags`."""
    cmd = [
        "cargo", "bench", "-q", "-p", "geode-benches", "--bench", "vector_throughput", "--",
        "--json", "--envs", ",".join(map(str, envs)), "--steps", str(steps),
        "--group", str(group), *flags,
    ]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def geode_rates(envs: list[int], steps: int, group: int) -> dict:
    """geode's sync rates on 1 and 2 threads (and the async pool's), keyed by (envs, threads)."""
    # With every core, step as a trainer's own thread does (the calling thread plus helpers),
    # not from inside a rayon pool.
    rows = bench_rows(envs, steps, group, "--threads", "1,2", "--outside")
    return {(row["envs"], row["threads"]): row for row in rows}


def independent_rates(envs: list[int], steps: int, group: int) -> dict:
    """The summed rate of two vectors of n envs stepped at once, each by one thread of its own:
    what two cores give for work that shares nothing, the ceiling of a 2T/1T ratio here."""
    rows = bench_rows(envs, steps, group, "--side-by-side", "2")
    return {row["envs"]: row["total"] for row in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", default="16,64,256")
    parser.add_argument("--seconds", type=float, default=3.0, help="GEM measuring time per cell")
    parser.add_argument("--steps", type=int, default=2_000_000, help="geode steps per cell")
    parser.add_argument("--repeat", type=int, default=3, help="runs of every cell (median shown)")
    parser.add_argument("--group", type=int, default=0,
                        help="geode's VecSpec::group_size (envs per unit; 0, the default, picks it)")
    args = parser.parse_args()
    envs = [int(x) for x in args.envs.split(",")]

    python = ensure_gem()
    runs = []  # per repetition: {n: {column: rate}}
    for _ in range(args.repeat):
        geode = geode_rates(envs, args.steps, args.group)
        independent = independent_rates(envs, args.steps, args.group)
        rates = {}
        for n in envs:
            one, two = geode[(n, 1)], geode[(n, 2)]
            rates[n] = {
                "gem_sync": gem_rate(python, n, args.seconds, "sync"),
                "gem_async": gem_rate(python, n, args.seconds, "async"),
                "sync_1t": one["sync"], "sync_2t": two["sync"], "async_2t": two["async"],
            }
            rates[n]["sync_ratio"] = rates[n]["sync_2t"] / rates[n]["gem_sync"]
            rates[n]["async_ratio"] = rates[n]["async_2t"] / rates[n]["gem_async"]
            rates[n]["scaling"] = rates[n]["sync_2t"] / rates[n]["sync_1t"]
            rates[n]["ceiling"] = independent[n] / rates[n]["sync_1t"]
        runs.append(rates)

    def median(n: int, column: str) -> float:
        return statistics.median(run[n][column] for run in runs)

    def spread(n: int, column: str, fmt: str) -> str:
        values = [run[n][column] for run in runs]
        return f"{format(min(values), fmt)}-{format(max(values), fmt)}"

    print(f"GuessTheNumber-hard, SameStep autoreset, random actions, {os.cpu_count()} cores, "
          f"median of {args.repeat} runs, geode group_size {args.group}; geode sync 1T runs in a "
          f"one-thread rayon pool, 2T from a plain thread with the default helper; \"2 vectors\" "
          f"is two vectors of n envs stepped at once, one thread each (their summed rate)")
    header = ("envs", "GEM sync", "GEM async", "geode sync 1T", "geode sync 2T", "geode async 2T",
              "sync/GEM", "async/GEM async", "2T/1T", "2 vectors/1T")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for n in envs:
        cells = [
            str(n), f"{median(n, 'gem_sync'):,.0f}", f"{median(n, 'gem_async'):,.0f}",
            f"{median(n, 'sync_1t'):,.0f}", f"{median(n, 'sync_2t'):,.0f}",
            f"{median(n, 'async_2t'):,.0f}", f"{median(n, 'sync_ratio'):.1f}x",
            f"{median(n, 'async_ratio'):.1f}x", f"{median(n, 'scaling'):.2f}x",
            f"{median(n, 'ceiling'):.2f}x",
        ]
        print("| " + " | ".join(cells) + " |")
    if args.repeat > 1:
        print("\nRanges over the runs:")
        for n in envs:
            print(f"- {n} envs: geode sync 2T {spread(n, 'sync_2t', ',.0f')} steps/s, "
                  f"sync/GEM {spread(n, 'sync_ratio', '.1f')}x, "
                  f"async/GEM async {spread(n, 'async_ratio', '.1f')}x, "
                  f"2T/1T {spread(n, 'scaling', '.2f')}x, "
                  f"2 vectors/1T {spread(n, 'ceiling', '.2f')}x")

if __name__ == "__main__":
    main()
