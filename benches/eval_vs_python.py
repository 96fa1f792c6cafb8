#!/usr/bin/env python3
"""geode's eval runner next to the loop GEM's examples write (``openai.AsyncOpenAI`` + asyncio +
``gem``), both playing the same episodes against the same instant local server.

2,000 episodes of a 5-turn game (GuessTheNumber-v0-hard over 1..1000 with ``max_turns`` 5, a
model that bisects: it never finds the number in 5 guesses) at concurrency 512. Prints turns/s, the runner's CPU seconds per 1,000
turns (the server's own CPU is not counted) and the runner's peak RSS.

    cargo build --release -p geode-cli -p geode-model-server
    python3 -m venv /tmp/gem-venv && /tmp/gem-venv/bin/pip install gem-llm openai
    python3 benches/eval_vs_python.py --gem-python /tmp/gem-venv/bin/python
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GEODE = ROOT / "target" / "release" / "geode"
SERVER = ROOT / "target" / "release" / "geode-model-server"
ENV_ID = "game:GuessTheNumber-v0-hard"

PYTHON_LOOP = r'''
import asyncio, json, sys, time
import gem
from openai import AsyncOpenAI

base_url, episodes, concurrency, turns_per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

async def episode(client, slots, seed, totals):
    async with slots:
        env = gem.make("%s", min_number=1, max_number=1000, max_turns=turns_per)
        obs, _ = env.reset(seed=seed)
        messages = [{"role": "user", "content": obs}]
        for _ in range(turns_per):
            reply = await client.chat.completions.create(model="bench", messages=messages)
            action = reply.choices[0].message.content
            messages.append({"role": "assistant", "content": action})
            obs, reward, terminated, truncated, info = env.step(action)
            totals["turns"] += 1
            if terminated or truncated:
                break
            messages.append({"role": "user", "content": obs})

async def main():
    client = AsyncOpenAI(base_url=base_url, api_key="none", max_retries=8, timeout=120)
    slots = asyncio.Semaphore(concurrency)
    totals = {"turns": 0}
    start = time.perf_counter()
    await asyncio.gather(*(episode(client, slots, i, totals) for i in range(episodes)))
    print(json.dumps({"turns": totals["turns"], "wall": time.perf_counter() - start}))

asyncio.run(main())
''' % ENV_ID


def start_server():
    proc = subprocess.Popen([str(SERVER), "--listen", "127.0.0.1:0", "--model", "bench", "--policy",
                             "bisect"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline().strip()
    return proc, line.removeprefix("listening on ") + "/v1"


#: Runs a command and reports the rusage of that one child on stderr's last line (a fresh
#: process per measurement, so one runner's peak RSS is not another's).
RUSAGE_WRAPPER = r"""
import json, resource, subprocess, sys
out = subprocess.run(sys.argv[1:], check=True, capture_output=True, text=True)
sys.stdout.write(out.stdout)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "rss_kib": usage.ru_maxrss}), file=sys.stderr)
"""


def measured(cmd):
    """Runs ``cmd``; returns (stdout, wall s, CPU s, peak RSS MiB) of that child alone."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", RUSAGE_WRAPPER, *cmd], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed:\n{out.stderr[-3000:]}")
    usage = json.loads(out.stderr.strip().splitlines()[-1])
    return out.stdout, wall, usage["cpu"], usage["rss_kib"] / 1024


def geode_run(base_url, args, out_dir):
    stdout, wall, cpu, rss = measured([
        str(GEODE), "eval", ENV_ID, "--base-url", base_url, "--model", "bench", "--episodes",
        str(args.episodes), "--concurrency", str(args.concurrency), "--max-turns", "5",
        "--config", json.dumps({"min_number": 1, "max_number": 1000, "max_turns": 5}), "--out", str(out_dir)])
    summary = json.loads((out_dir / "summary.json").read_text())
    turns = round(summary["overall"]["mean_turns"] * summary["overall"]["episodes"])
    return turns, wall, cpu, rss


def python_run(base_url, args, script):
    stdout, wall, cpu, rss = measured([args.gem_python, str(script), base_url, str(args.episodes),
                                       str(args.concurrency), "5"])
    result = json.loads(stdout.strip().splitlines()[-1])
    return result["turns"], wall, cpu, rss


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gem-python", default=sys.executable, help="a Python with gem-llm and openai")
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    server, base_url = start_server()
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            script = Path(tmp) / "gem_loop.py"
            script.write_text(PYTHON_LOOP)
            for n in range(args.repeat):
                rows.append(("geode eval", *geode_run(base_url, args, Path(tmp) / f"geode-{n}")))
                rows.append(("AsyncOpenAI + gem", *python_run(base_url, args, script)))
    finally:
        server.stdin.close()
        server.wait(timeout=10)
    print(f"{args.episodes} episodes x 5 turns, concurrency {args.concurrency}, {ENV_ID}, instant server")
    print("| runner | turns | turns/s | CPU s / 1000 turns | peak RSS MiB |")
    print("|---|---|---|---|---|")
    for name, turns, wall, cpu, rss in rows:
        print(f"| {name} | {turns} | {turns / wall:,.0f} | {cpu / turns * 1000:.3f} | {rss:.0f} |")


if __name__ == "__main__":
    main()
