#!/usr/bin/env python3
"""geode next to GEM on a 64-env vector env of three ReasoningGym ids, both driven from Python.

Both run ReasoningGym in the host's Python (geode's rg ids are Python envs in its package), so
this measures the vector env and env layers around the same library: pre-generated replies
(`\\boxed{<int>}`, mostly wrong), SameStep autoreset (every step scores one reply and poses the
next question), GEM's SyncVectorEnv / AsyncVectorEnv vs geode's `make_vec` sync and async.

    python3 benches/rg_side_by_side.py [--envs 64] [--seconds 3] [--ids rg:leg_counting,rg:gcd,rg:spell_backward]
        [--gem-python PATH] [--geode-python PATH] [--geode-path DIR]

`--gem-python` defaults to the venv of `gem_side_by_side.py` (gem-llm brings reasoning-gym);
`--geode-python` to target/py-venv (built by host/python/dev-install.sh, which installs the rg
extra); `--geode-path` puts a geode source tree first on that Python's path.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gem_side_by_side import ensure_gem  # noqa: E402
from python_side_by_side import ensure_geode  # noqa: E402

RUNNER = r"""
import importlib, json, random, sys, time
module, ids, n, seconds, mode = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
gem = importlib.import_module(module)
assert gem.__name__ == module
rng = random.Random(1234)
batches = [["\\boxed{%d}" % rng.randint(1, 50) for _ in range(n)] for _ in range(64)]
env_ids = [ids[i % len(ids)] for i in range(n)]
vec = gem.make_vec(env_ids, async_mode=mode == "async", seed=0)
vec.reset()
for b in batches[:4]:
    vec.step(b)
steps, i, start = 0, 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    vec.step(batches[i % 64])
    steps, i = steps + n, i + 1
print(json.dumps({"rate": steps / (time.perf_counter() - start)}))
"""


def rate(python, module, ids, n, seconds, mode, path=None):
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = os.pathsep.join([path, env.get("PYTHONPATH", "")])
    out = subprocess.run([str(python), "-c", RUNNER, module, ",".join(ids), str(n), str(seconds), mode],
                         capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"{module} {mode} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])["rate"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--ids", default="rg:leg_counting,rg:gcd,rg:spell_backward")
    parser.add_argument("--gem-python")
    parser.add_argument("--geode-python")
    parser.add_argument("--geode-path")
    args = parser.parse_args()
    ids = args.ids.split(",")
    gem_python = Path(args.gem_python) if args.gem_python else ensure_gem()
    geode_python = Path(args.geode_python) if args.geode_python else ensure_geode()
    print(f"{args.envs} envs of {', '.join(ids)}, SameStep autoreset, steps/s through Python, "
          f"{os.cpu_count()} cores, one run of {args.seconds:g}s per cell")
    print("| mode | GEM | geode | geode/GEM |")
    print("|---|---|---|---|")
    for mode in ("sync", "async"):
        g = rate(gem_python, "gem", ids, args.envs, args.seconds, mode)
        o = rate(geode_python, "geode", ids, args.envs, args.seconds, mode, args.geode_path)
        print(f"| {mode} | {g:,.0f} | {o:,.0f} | {o / g:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
