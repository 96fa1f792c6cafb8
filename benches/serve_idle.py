"""Idle sessions one ``geode serve`` holds: N WebSocket sessions, each connected and reset, then
held; prints the server's resident memory before and with all of them held, per session, the
session count /metrics reports, and the time /health takes meanwhile.

    cargo build --release -p geode-cli
    target/openenv-venv/bin/python benches/serve_idle.py --sessions 10000
"""

import argparse
import asyncio
import json
import resource
import subprocess
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
GEODE = ROOT / "target/release/geode"


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def _hold(url: str, count: int, at_once: int) -> list:
    held = []

    async def one():
        ws = await connect(f"{url}/ws", ping_interval=None, max_queue=1)
        held.append(ws)
        await ws.send(json.dumps({"type": "reset", "data": {}}))
        reply = json.loads(await ws.recv())
        assert reply["type"] == "observation", reply

    for first in range(0, count, at_once):
        await asyncio.gather(*(one() for _ in range(min(at_once, count - first))))
    return held


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--at-once", type=int, default=200)
    parser.add_argument("--env", default="game:GuessTheNumber-v0-easy")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    server = subprocess.Popen(
        [str(GEODE), "serve", args.env, "--port", "0", "--max-sessions", str(args.sessions)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().rsplit(" ", 1)[1].strip()
        time.sleep(0.5)
        before = _rss(server.pid)
        started = time.monotonic()
        held = asyncio.run(_hold(url.replace("http://", "ws://"), args.sessions, args.at_once))
        took = time.monotonic() - started
        time.sleep(1)
        full = _rss(server.pid)
        metrics = urllib.request.urlopen(f"{url}/metrics").read().decode()
        sessions = next(line.split()[1] for line in metrics.splitlines()
                        if line.startswith("geode_serve_sessions "))
        started = time.monotonic()
        urllib.request.urlopen(f"{url}/health").read()
        health_ms = (time.monotonic() - started) * 1000
        print(f"| sessions held | opened in | RSS before | RSS held | per session | /health |")
        print(f"| {len(held):,} ({sessions} in /metrics) | {took:.1f} s | {before / 2**20:.0f} MB "
              f"| {full / 2**20:,.0f} MB | {(full - before) / len(held) / 1024:.0f} KiB "
              f"| {health_ms:.1f} ms |")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
