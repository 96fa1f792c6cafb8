"""Load over loopback: N concurrent WebSocket sessions stepping GuessTheNumber against
``geode serve`` and against an OpenEnv server (``openenv-core``'s own server app) hosting an
equivalent Python env, in one run. Reports steps/s, p50/p99 step latency, the server's peak RSS
and the success rate (messages answered without error, over messages sent).

    bash host/serve/openenv-venv.sh && cargo build --release -p geode-cli
    target/openenv-venv/bin/python benches/serve_load.py --sessions 1000 --seconds 20

Each session connects, then plays episodes with a bisecting player (reset with a seed, step
until done) until the time budget or ``--episodes`` per session runs out. The client is one
asyncio process on the same machine as the server: on a small machine it shares the cores.
"""

import argparse
import asyncio
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GEODE = ROOT / "target/release/geode"
CONFIG = {"min_number": 1, "max_number": 20, "max_turns": 10}
HINT = re.compile(r"guessed (\d+), and the target number is (higher|lower)")


# --- The OpenEnv side: the same game as a Python env on openenv-core's server. ---------------

def openenv_app(max_sessions: int):
    """An OpenEnv FastAPI app serving a Python GuessTheNumber (the rules of geode's plugin)."""
    import random
    from typing import Any, Dict, Optional

    from openenv.core.env_server.http_server import create_app
    from openenv.core.env_server.interfaces import Environment
    from openenv.core.env_server.types import Action, Observation, State

    class TextAction(Action):
        message: str

    class TextObservation(Observation):
        text: str = ""
        terminated: bool = False
        truncated: bool = False
        info: Dict[str, Any] = {}

    boxed = re.compile(r"\\boxed\{\s*(-?\d+)\s*\}")

    class GuessTheNumber(Environment):
        SUPPORTS_CONCURRENT_SESSIONS = True

        def __init__(self):
            super().__init__()
            self._state = State(episode_id=None, step_count=0)
            self.rng = random.Random()
            self.target, self.turn, self.guesses = 0, 0, set()

        def reset(self, seed: Optional[int] = None, episode_id: Optional[str] = None, **kw):
            if seed is not None:
                self.rng.seed(seed)
            self.target = self.rng.randint(CONFIG["min_number"], CONFIG["max_number"])
            self.turn, self.guesses = 0, set()
            self._state = State(episode_id=episode_id, step_count=0)
            return TextObservation(text=f"Guess a number between {CONFIG['min_number']} and "
                                        f"{CONFIG['max_number']}, answer with \\boxed{{N}}.")

        def step(self, action: TextAction, timeout_s=None, **kw):
            self.turn += 1
            self._state.step_count += 1
            found = boxed.findall(action.message)
            at_limit = self.turn >= CONFIG["max_turns"]
            if not found or int(found[-1]) == 0:
                return TextObservation(text=f"At turn {self.turn}, no valid guess.", reward=-0.1,
                                       done=True, terminated=True)
            guess = int(found[-1])
            if guess == self.target:
                return TextObservation(text=f"Congratulations! You guessed the correct number "
                                            f"{guess} in {self.turn} turns.",
                                       reward=1.0, done=True, terminated=True)
            hint = "lower" if guess > self.target else "higher"
            self.guesses.add(guess)
            return TextObservation(
                text=f"At turn {self.turn}, you guessed {guess}, and the target number is "
                     f"{hint} than {guess}.",
                reward=0.0, done=at_limit, truncated=at_limit)

        @property
        def state(self):
            return self._state

    return create_app(GuessTheNumber, TextAction, TextObservation, env_name="guess_the_number",
                      max_concurrent_envs=max_sessions)


def run_openenv_server(port: int, max_sessions: int):
    import uvicorn

    uvicorn.run(openenv_app(max_sessions), host="127.0.0.1", port=port, log_level="warning",
                backlog=4096, ws_max_size=2 << 20)


# --- Servers under test. ------------------------------------------------------------------------

def start_geode(max_sessions: int):
    proc = subprocess.Popen(
        [str(GEODE), "serve", "game:GuessTheNumber-v0-hard", "--config", json.dumps(CONFIG),
         "--port", "0", "--max-sessions", str(max_sessions)],
        stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert "listening on" in line, line
    return proc, line.rsplit(" ", 1)[1].strip().replace("http://", "ws://")


def start_openenv(max_sessions: int):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # Its log (uvicorn prints a traceback per connection dropped at shutdown) goes to a file.
    log = open(ROOT / "target/serve_load-openenv.log", "w")
    proc = subprocess.Popen([sys.executable, __file__, "--openenv-server", str(port),
                             "--sessions", str(max_sessions)], stderr=log)
    import httpx
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the OpenEnv server did not start"
        time.sleep(0.2)
    return proc, f"ws://127.0.0.1:{port}"


class RssPeak:
    """Samples a process's resident memory every 100 ms; keeps the peak."""

    def __init__(self, pid: int):
        self.pid, self.peak, self._stop = pid, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            try:
                for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        self.peak = max(self.peak, int(line.split()[1]) * 1024)
            except OSError:
                return
            self._stop.wait(0.1)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


# --- The load. ----------------------------------------------------------------------------------

async def session(url: str, index: int, episodes: int, stats: dict, gate):
    from websockets.asyncio.client import connect

    async with gate:
        try:
            ws = await connect(f"{url}/ws", open_timeout=60, max_size=2 << 20)
        except Exception:
            stats["failed_connects"] += 1
            return
    stats["connected"] += 1
    await stats["all_connected"].wait()
    try:
        for episode in range(episodes):
            if time.monotonic() > stats["deadline"]:
                break
            seed = index * 1000 + episode
            reply = await ask(ws, {"type": "reset", "data": {"seed": seed}}, stats, step=False)
            lo, hi, done = CONFIG["min_number"], CONFIG["max_number"], reply is None
            text = "" if reply is None else reply["observation"]["text"]
            while not done:
                hint = HINT.search(text)
                if hint:
                    guess = int(hint.group(1))
                    lo, hi = (guess + 1, hi) if hint.group(2) == "higher" else (lo, guess - 1)
                reply = await ask(ws, {"type": "step", "data": {"message": f"\\boxed{{{(lo + hi) // 2}}}"}},
                                  stats, step=True)
                if reply is None:
                    break
                text, done = reply["observation"]["text"], reply["done"]
                if done and reply["reward"] == 1.0:
                    stats["wins"] += 1
            stats["episodes"] += 1
        await ws.send(json.dumps({"type": "close"}))
    except Exception:
        stats["dropped"] += 1
    finally:
        await ws.close()


async def ask(ws, message, stats, step: bool):
    start = time.perf_counter()
    await ws.send(json.dumps(message))
    reply = json.loads(await ws.recv())
    elapsed = time.perf_counter() - start
    stats["sent"] += 1
    if reply.get("type") != "observation":
        stats["errors"] += 1
        return None
    stats["ok"] += 1
    if step:
        stats["steps"] += 1
        stats["latencies"].append(elapsed)
    return reply["data"]


async def load(url: str, sessions: int, seconds: float, episodes: int) -> dict:
    """Connects every session, then lets them all play until the budget runs out."""
    stats = {"connected": 0, "failed_connects": 0, "dropped": 0, "sent": 0, "ok": 0, "errors": 0,
             "steps": 0, "episodes": 0, "wins": 0, "latencies": [], "deadline": float("inf"),
             "all_connected": asyncio.Event()}
    gate = asyncio.Semaphore(200)  # connection attempts in flight at once
    tasks = [asyncio.create_task(session(url, i, episodes, stats, gate)) for i in range(sessions)]
    connect_start = time.monotonic()
    while stats["connected"] + stats["failed_connects"] < sessions:
        await asyncio.sleep(0.05)
        if time.monotonic() - connect_start > 120:
            break
    stats["connect_time"] = time.monotonic() - connect_start
    start = time.monotonic()
    stats["deadline"] = start + seconds
    stats["all_connected"].set()
    await asyncio.gather(*tasks)
    stats["wall"] = time.monotonic() - start
    return stats


def measure(name: str, start, sessions: int, seconds: float, episodes: int) -> dict:
    proc, url = start(sessions + 16)
    try:
        rss = RssPeak(proc.pid)
        stats = asyncio.run(load(url, sessions, seconds, episodes))
        peak = rss.stop()
        alive = proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    lat = sorted(stats["latencies"]) or [float("nan")]
    pick = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000
    expected = sessions
    return {
        "server": name,
        "sessions": f"{stats['connected']}/{expected}",
        "steps/s": stats["steps"] / stats["wall"],
        "p50 ms": pick(0.50),
        "p99 ms": pick(0.99),
        "peak RSS MB": peak / 2**20,
        "success": stats["ok"] / max(1, stats["sent"]) * stats["connected"] / expected,
        "steps": stats["steps"],
        "episodes": stats["episodes"],
        "wins": stats["wins"],
        "errors": stats["errors"] + stats["dropped"] + stats["failed_connects"],
        "connect s": stats["connect_time"],
        "alive": alive,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0, help="stepping budget per server")
    parser.add_argument("--episodes", type=int, default=1000, help="episodes per session at most")
    parser.add_argument("--only", choices=["geode", "openenv"])
    parser.add_argument("--openenv-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.openenv_server:
        return run_openenv_server(args.openenv_server, args.sessions)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * args.sessions + 256
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
    rows = []
    if args.only in (None, "geode"):
        rows.append(measure("geode serve", start_geode, args.sessions, args.seconds, args.episodes))
    if args.only in (None, "openenv"):
        rows.append(measure("openenv-core 0.3 (uvicorn)", start_openenv, args.sessions,
                            args.seconds, args.episodes))
    print(f"{args.sessions} WebSocket sessions, GuessTheNumber 1..20, {args.seconds:g} s each, "
          f"{os.cpu_count()} cores, client and server on one machine")
    print("| server | sessions | steps/s | p50 ms | p99 ms | peak RSS MB | success | steps | wins | errors |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['server']} | {r['sessions']} | {r['steps/s']:.0f} | {r['p50 ms']:.1f} | "
              f"{r['p99 ms']:.1f} | {r['peak RSS MB']:.0f} | {r['success']:.1%} | {r['steps']} | "
              f"{r['wins']} | {r['errors']} |")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
