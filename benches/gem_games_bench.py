#!/usr/bin/env python3
"""Steps per second of every game, geode (one env, `geode run`) against GEM (one env), both
playing random actions from the env's own `sample_random_action`.

    python3 benches/gem_games_bench.py [--episodes 2000] [--seconds 2]
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gem_side_by_side import ROOT, ensure_gem  # noqa: E402
from gem_games_compare import geode_ids  # noqa: E402

GEM_LOOP = r"""
import json, sys, time
import gem
env_id, seconds = sys.argv[1], float(sys.argv[2])
env = gem.make(env_id)
env.reset(seed=0)
steps, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    _, _, term, trunc, _ = env.step(env.sample_random_action())
    steps += 1
    if term or trunc:
        env.reset()
print(json.dumps({"rate": steps / (time.perf_counter() - start)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    python = ensure_gem()
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "geode-cli"], cwd=ROOT, check=True)
    binary = ROOT / "target" / "release" / "geode"
    print("| id | GEM steps/s | geode steps/s | geode/GEM |")
    print("|---|---|---|---|")
    for env_id in [i for i in geode_ids(binary) if i.startswith("game:")]:
        out = subprocess.run([str(binary), "run", env_id, "--episodes", str(args.episodes)],
                             capture_output=True, text=True, check=True)
        ours = float(re.search(r"steps/s\s+(\d+)", out.stdout).group(1))
        gem_out = subprocess.run([str(python), "-c", GEM_LOOP, env_id, str(args.seconds)],
                                 capture_output=True, text=True)
        if gem_out.returncode != 0:
            print(f"| {env_id} | GEM failed | {ours:,.0f} | - |")
            continue
        theirs = json.loads(gem_out.stdout.strip().splitlines()[-1])["rate"]
        print(f"| {env_id} | {theirs:,.0f} | {ours:,.0f} | {ours / theirs:.1f}x |")


if __name__ == "__main__":
    main()
