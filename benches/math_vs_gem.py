#!/usr/bin/env python3
"""geode's sandboxed math grader next to GEM's, in one run, on the golden set
(plugins/math-grader/tests/golden.json: 328 answers, formats, response shapes, hostile ones).

GEM grades the way its MathEnv does with its default `use_mp=True`: `boxed_reward_fn(fast=False)`
in a worker process, waited on for 1 s (a worker stuck past that is replaced). geode grades with
`geode.utils.math_grader.boxed_reward_fn` (fresh component instance per answer, fuel budget).
Both sides grade the whole set with 1 and 2 threads (GEM: 1 and 2 worker processes), and report
answers per second, p50, p99 and worst time per answer, and agreement with each other. Then the
proportional resident memory (PSS, all processes) of N math envs that each graded an answer (geode: `gem.make`; GEM: MathEnv with its process pool each,
on an in-memory dataset).

    python3 benches/math_vs_gem.py [--envs 256,1024] [--skip-memory]

Needs target/bench-venv (gem-llm, pylatexenc, datasets; or any Python with them, named by
GEODE_BENCH_GEM_PYTHON) and the geode package in target/py-venv (bash host/python/dev-install.sh).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "plugins/math-grader/tests/golden.json"
GEM_PYTHON = Path(os.environ.get("GEODE_BENCH_GEM_PYTHON", ROOT / "target/bench-venv/bin/python"))
GEODE_PYTHON = ROOT / "target/py-venv/bin/python"


def _rss_mb(pids):
    """Proportional set size (shared pages split between the processes sharing them), in MB."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


# What one GEM math env with its worker process costs once it graded (23 GB / ~800 workers).
GEM_MB_PER_ENV = 30


def _available_mb():
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) / 1024
    return 0


def _children(pid):
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def _summary(times, verdicts, wall):
    times = sorted(times)
    return {
        "answers_per_s": len(times) / wall,
        "p50_ms": 1000 * times[len(times) // 2],
        "p99_ms": 1000 * times[min(len(times) - 1, int(len(times) * 0.99))],
        "worst_ms": 1000 * times[-1],
        "verdicts": verdicts,
    }


def gem_side(threads):
    import multiprocessing

    from gem.utils.math_grader import boxed_reward_fn

    cases = json.loads(GOLDEN.read_text())
    pool = multiprocessing.Pool(threads)
    pending = []
    started = time.perf_counter()
    for case in cases:
        pending.append((time.perf_counter(), pool.apply_async(_gem_one, (case["response"], case["truths"]))))
    times, verdicts = [], []
    for submitted, result in pending:
        try:
            correct, seconds = result.get(timeout=max(0.0, submitted + 1.0 - time.perf_counter()) + 1.0)
            correct = correct and seconds <= 1.0
        except multiprocessing.TimeoutError:
            correct, seconds = False, 1.0
        times.append(min(seconds, 1.0))
        verdicts.append(bool(correct))
    wall = time.perf_counter() - started
    pool.terminate()
    del boxed_reward_fn
    return _summary(times, verdicts, wall)


def _gem_one(response, truths):
    from gem.utils.math_grader import boxed_reward_fn

    started = time.perf_counter()
    correct = False
    for truth in truths:
        if boxed_reward_fn(response, truth, fast=False)[1] == 1.0:
            correct = True
            break
    return correct, time.perf_counter() - started


def geode_side(threads):
    from concurrent.futures import ThreadPoolExecutor

    from geode.utils import math_grader

    cases = json.loads(GOLDEN.read_text())
    math_grader.boxed_reward_fn("\\boxed{1}", "1")  # load the grader once

    def one(case):
        started = time.perf_counter()
        reward = math_grader.boxed_reward_fn(case["response"], case["truths"])[1]
        return reward == 1.0, time.perf_counter() - started

    started = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(one, cases))
    wall = time.perf_counter() - started
    return _summary([t for _, t in results], [v for v, _ in results], wall)


class _Rows(list):
    """Stands in for `datasets.Dataset` (GEM's MathEnv only shuffles and indexes it), so the
    benchmark needs no `datasets` install."""

    def shuffle(self, seed=None):
        return self


def gem_memory(count):
    import types

    stub = types.ModuleType("datasets")
    stub.Dataset, stub.DatasetDict, stub.load_dataset = _Rows, dict, None
    sys.modules.setdefault("datasets", stub)
    from gem.envs.math_env import MathEnv

    data = sys.modules["datasets"].Dataset([{"problem": "1+1?", "answer": "2"}] * 8)
    envs = [MathEnv(dataset=data) for _ in range(count)]
    for env in envs:
        env.reset()
        env.step("\\boxed{2}")
    time.sleep(1)
    pids = [os.getpid()] + _children(os.getpid())
    rss = _rss_mb(pids)
    for env in envs:
        env.close()
    return {"rss_mb": rss, "processes": len(pids)}


def geode_memory(count):
    import geode as gem

    gem.make("math:GSM8K").reset()
    before = _rss_mb([os.getpid()])
    envs = [gem.make("math:GSM8K") for _ in range(count)]
    for env in envs[:8]:
        env.reset(seed=0)
        env.step("\\boxed{14}")
    return {"rss_mb": _rss_mb([os.getpid()]), "rss_before_envs_mb": before, "processes": 1}




def run_side(python, side, arg):
    out = subprocess.run(
        [str(python), __file__, "--side", side, "--arg", str(arg)],
        capture_output=True, text=True, cwd=ROOT,
    )
    if out.returncode != 0:
        raise SystemExit(f"{side} {arg} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--side")
    parser.add_argument("--arg", type=int, default=1)
    parser.add_argument("--envs", default="256,1024")
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    if args.side:
        function = {"gem": gem_side, "geode": geode_side, "gem-memory": gem_memory, "geode-memory": geode_memory}[args.side]
        print(json.dumps(function(args.arg)))
        return
    golden = json.loads(GOLDEN.read_text())
    print(f"{len(golden)} golden answers; {os.cpu_count()} cores")
    print(f"{'grader':8} {'threads':>7} {'answers/s':>10} {'p50 ms':>8} {'p99 ms':>8} {'worst ms':>9} {'= GEM golden':>13}")
    for threads in (1, 2):
        for name, python in (("GEM", GEM_PYTHON), ("geode", GEODE_PYTHON)):
            r = run_side(python, name.lower(), threads)
            same = sum(v == c["correct"] for v, c in zip(r["verdicts"], golden))
            print(f"{name:8} {threads:>7} {r['answers_per_s']:>10.1f} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f} {r['worst_ms']:>9.1f} {same:>9}/{len(golden)}")
    if args.skip_memory:
        return
    for count in [int(c) for c in args.envs.split(",")]:
        for name, python in (("GEM", GEM_PYTHON), ("geode", GEODE_PYTHON)):
            if name == "GEM" and count * GEM_MB_PER_ENV > _available_mb():
                # Measured: 1,024 GEM math envs were OOM-killed at ~800 workers on 23 GB.
                print(f"{name:8} {count:>5} math envs: skipped, needs ~{count * GEM_MB_PER_ENV / 1024:.0f} GB "
                      f"(one worker process per env), {_available_mb() / 1024:.0f} GB available")
                continue
            r = run_side(python, f"{name.lower()}-memory", count)
            print(f"{name:8} {count:>5} math envs: {r['rss_mb']:>8.0f} MB (PSS), {r['processes']} processes")


if __name__ == "__main__":
    main()
