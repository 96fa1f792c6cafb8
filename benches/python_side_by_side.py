#!/usr/bin/env python3
"""geode's Python package next to GEM, both driven from Python, on GuessTheNumber-hard.

The same runner (pre-generated random actions, SameStep autoreset) times GEM's SyncVectorEnv /
AsyncVectorEnv (pip `gem-llm`, in the venv of `gem_side_by_side.py`) and geode's
`make_vec(...)` sync and async (`import geode as gem`, from target/py-venv), plus geode's
EnvPool-style `send`/`recv` and per-episode `await step_async` under asyncio.

    python3 benches/python_side_by_side.py [--envs 16,64,256] [--seconds 3] [--repeat 3]

Each cell is measured `--repeat` times (rates on small VMs vary from run to run); the table
shows medians, and the ranges of the ratios follow it.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gem_side_by_side import ENV_ID, ROOT, ensure_gem  # noqa: E402

GEODE_PYTHON = ROOT / "target" / "py-venv" / "bin" / "python"

RUNNER = r"""
import asyncio, importlib, json, random, sys, time, types
sys.modules.setdefault("requests", types.ModuleType("requests"))
module, env_id, n, seconds, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
group = int(sys.argv[6]) if len(sys.argv) > 6 else 0
gem = importlib.import_module(module)
rng = random.Random(1234)
batches = [["\\boxed{%d}" % rng.randint(1, 50) for _ in range(n)] for _ in range(64)]
extra = {"group_size": group} if group > 0 else {}  # geode only: envs per unit (0: default)
vec = gem.make_vec([env_id] * n, async_mode=mode != "sync", seed=0, **extra)
vec.reset(seed=0)

def timed(loop):
    loop(0.2)  # warm up
    start = time.perf_counter()
    steps = loop(seconds)
    return steps / (time.perf_counter() - start)

def step_loop(duration):
    steps, i, end = 0, 0, time.perf_counter() + duration
    while time.perf_counter() < end:
        vec.step(batches[i % 64])
        steps, i = steps + n, i + 1
    return steps

def send_recv_loop(duration):
    steps, i, end = 0, 0, time.perf_counter() + duration
    vec.send(list(range(n)), batches[0])
    while time.perf_counter() < end:
        indices = vec.recv(max(1, n // 4))[0]
        steps += len(indices)
        vec.send(indices, [batches[i % 64][j] for j in indices])
        i += 1
    while vec.pending:
        steps += len(vec.recv(vec.pending)[0])
    return steps

def step_async_loop(duration):
    end = time.perf_counter() + duration
    async def episode(j):
        steps, i = 0, j
        while time.perf_counter() < end:
            await vec.step_async(j, batches[i % 64][j])
            steps, i = steps + 1, i + 1
        return steps
    async def main():
        return sum(await asyncio.gather(*(episode(j) for j in range(n))))
    return asyncio.run(main())

loop = {"sync": step_loop, "async": step_loop, "send_recv": send_recv_loop, "step_async": step_async_loop}[mode]
print(json.dumps({"rate": timed(loop)}))
"""


def ensure_geode() -> Path:
    """target/py-venv with geode installed (built by host/python/dev-install.sh when missing)."""
    probe = [str(GEODE_PYTHON), "-c", "import geode"]
    if not GEODE_PYTHON.exists() or subprocess.run(probe, capture_output=True).returncode != 0:
        subprocess.run(["bash", str(ROOT / "host/python/dev-install.sh")], check=True)
    return GEODE_PYTHON


def rate(python: Path, module: str, n: int, seconds: float, mode: str, group: int = 0) -> float:
    out = subprocess.run(
        [str(python), "-c", RUNNER, module, ENV_ID, str(n), str(seconds), mode, str(group)],
        capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])["rate"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", default="16,64,256")
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per cell")
    parser.add_argument("--repeat", type=int, default=3, help="runs of every cell (median shown)")
    parser.add_argument("--group", type=int, default=0,
                        help="geode's group_size (envs per unit; 0, the default, picks it)")
    args = parser.parse_args()
    envs = [int(x) for x in args.envs.split(",")]

    gem_python, geode_python = ensure_gem(), ensure_geode()
    print(f"{ENV_ID}, SameStep autoreset, random actions, steps/s through Python, "
          f"{os.cpu_count()} cores, median of {args.repeat} runs, geode group_size {args.group}")
    header = ("envs", "GEM sync", "geode sync", "ratio", "GEM async", "geode async", "ratio",
              "geode send/recv", "geode step_async")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    ranges = []
    for n in envs:
        runs = []
        for _ in range(args.repeat):
            runs.append({
                "gem_sync": rate(gem_python, "gem", n, args.seconds, "sync"),
                "gem_async": rate(gem_python, "gem", n, args.seconds, "async"),
                "sync": rate(geode_python, "geode", n, args.seconds, "sync", args.group),
                "async": rate(geode_python, "geode", n, args.seconds, "async", args.group),
                "send_recv": rate(geode_python, "geode", n, args.seconds, "send_recv", args.group),
                "step_async": rate(geode_python, "geode", n, args.seconds, "step_async", args.group),
            })
        for run in runs:
            run["sync_ratio"] = run["sync"] / run["gem_sync"]
            run["async_ratio"] = run["async"] / run["gem_async"]
        med = {k: statistics.median(run[k] for run in runs) for k in runs[0]}
        cells = [
            str(n), f"{med['gem_sync']:,.0f}", f"{med['sync']:,.0f}", f"{med['sync_ratio']:.1f}x",
            f"{med['gem_async']:,.0f}", f"{med['async']:,.0f}", f"{med['async_ratio']:.1f}x",
            f"{med['send_recv']:,.0f}", f"{med['step_async']:,.0f}",
        ]
        print("| " + " | ".join(cells) + " |", flush=True)
        lo_hi = lambda k: (min(r[k] for r in runs), max(r[k] for r in runs))  # noqa: E731
        ranges.append((n, lo_hi("sync_ratio"), lo_hi("async_ratio")))
    if args.repeat > 1:
        print(f"\nRanges over {args.repeat} runs:")
        for n, (s_lo, s_hi), (a_lo, a_hi) in ranges:
            print(f"- {n} envs: sync/GEM {s_lo:.1f}-{s_hi:.1f}x, async/GEM async {a_lo:.1f}-{a_hi:.1f}x")

if __name__ == "__main__":
    main()
