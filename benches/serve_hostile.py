"""``geode serve`` under load, over loopback, against a release build. Prints one table:

1. capacity: N WebSocket sessions opened and reset, then held idle; the server's RSS per
   session, /health and /metrics answered meanwhile, and session N + 1 refused with
   CAPACITY_REACHED;
2. hostile patterns: well-behaved sessions play GuessTheNumber while one hostile pattern at a
   time runs beside them; steps/s, p50 and p99 step latency, p99 against the quiet run, the
   server's RSS, file descriptors and CPU. The hostile clients run in a process of their own
   at the lowest CPU priority (``--same-priority``: at the players'), so that on one machine
   they stand for clients elsewhere: they take the CPU the server and the players leave, and
   do not hold up the players' event loop;
3. cycles: sessions opened and ended three ways (clean close, dropped after a reply, dropped
   mid-step); the server's fds and RSS before and after.

    cargo build --release -p geode-cli
    target/openenv-venv/bin/python benches/serve_hostile.py [--sessions 10000] [--seconds 5]
        [--cycles 100000] [-- more geode serve flags]

Patterns: slowloris (headers a byte at a time), silent connections, slow consumers (WebSocket
clients that send without reading), a ping flood, fragmented messages that never end, and a
connect storm (1,000 WebSocket connects per second). Client processes and the server share the
machine's cores.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import subprocess
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
GEODE = ROOT / "target/release/geode"
ENV = "game:GuessTheNumber-v0-easy"
KEY = "dGhlIHNhbXBsZSBub25jZQ=="


class Server:
    """A `geode serve` process of the release build, on a free loopback port."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen(
            [str(GEODE), "serve", ENV, "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().rsplit(" ", 1)[1].strip()
        self.port = int(self.url.rsplit(":", 1)[1])
        self.ws = self.url.replace("http://", "ws://") + "/ws"
        time.sleep(0.5)

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def cpu_seconds(self) -> float:
        """User and system CPU time the server has used."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def get_ms(self, path: str) -> tuple:
        started = time.monotonic()
        body = urllib.request.urlopen(self.url + path, timeout=30).read().decode()
        return body, (time.monotonic() - started) * 1000

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)


# -- capacity ---------------------------------------------------------------------------------

async def _hold(server: Server, count: int, at_once: int = 200) -> list:
    held = []

    async def one():
        ws = await connect(server.ws, ping_interval=None, max_queue=1)
        held.append(ws)
        await ws.send(json.dumps({"type": "reset", "data": {}}))
        reply = json.loads(await ws.recv())
        assert reply["type"] == "observation", reply

    for first in range(0, count, at_once):
        await asyncio.gather(*(one() for _ in range(min(at_once, count - first))))
    return held


async def _refused(server: Server) -> str:
    async with connect(server.ws, ping_interval=None) as ws:
        return json.loads(await ws.recv())["data"]["code"]


def capacity(sessions: int, serve_args: list) -> str:
    server = Server("--max-sessions", str(sessions), *serve_args)
    try:
        before = server.rss_mb()

        async def run():
            started = time.monotonic()
            held = await _hold(server, sessions)
            took = time.monotonic() - started
            await asyncio.sleep(1)
            full = server.rss_mb()
            metrics, metrics_ms = server.get_ms("/metrics")
            _, health_ms = server.get_ms("/health")
            refusal = await _refused(server)
            count = next(line.split()[1] for line in metrics.splitlines()
                         if line.startswith("geode_serve_sessions "))
            for ws in held:
                ws.transport.abort()
            return (f"| {len(held):,} sessions held ({count} in /metrics), opened in {took:.0f} s; "
                    f"session {sessions + 1:,}: {refusal} | | | | | {before:.0f} -> {full:,.0f} "
                    f"({(full - before) * 1024 / len(held):.0f} KiB per session) | "
                    f"{server.fds():,} | /health {health_ms:.1f} ms, /metrics {metrics_ms:.1f} ms |")
        return asyncio.run(run())
    finally:
        server.stop()


# -- hostile patterns (run in a child process) --------------------------------------------------

def _frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    mask = b"\x01\x02\x03\x04"
    return bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(payload))


async def _raw(port: int, upgrade: bool):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    if upgrade:
        writer.write((f"GET /ws HTTP/1.1\r\nHost: geode\r\nUpgrade: websocket\r\nConnection: "
                      f"Upgrade\r\nSec-WebSocket-Key: {KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
    return reader, writer


async def _slowloris(port: int, until: float):
    _, writer = await _raw(port, upgrade=False)
    writer.write(b"GET /health HTTP/1.1\r\nHost: geode\r\n")
    while time.monotonic() < until:
        writer.write(b"X")
        await writer.drain()
        await asyncio.sleep(0.5)


async def _silent(port: int, until: float):
    reader, _ = await _raw(port, upgrade=False)
    await asyncio.wait_for(reader.read(1), max(0.01, until - time.monotonic()))


async def _sends_without_reading(port: int, until: float, frame: bytes, pause: float):
    """Upgrades, then sends `frame` (64 at a time) as fast as the server takes them, pausing
    `pause` s between batches, and never reads."""
    _, writer = await _raw(port, upgrade=True)
    while time.monotonic() < until:
        writer.write(frame * 64)
        await asyncio.wait_for(writer.drain(), max(0.01, until - time.monotonic()))
        await asyncio.sleep(pause)


async def _slow_consumer(port: int, until: float):
    await _sends_without_reading(port, until, _frame(0x1, b'{"type":"state"}'), 0)


async def _ping_flood(port: int, until: float):
    await _sends_without_reading(port, until, _frame(0x9, b"ping"), 0.001)


async def _fragments(port: int, until: float):
    _, writer = await _raw(port, upgrade=True)
    writer.write(_frame(0x1, b'{"type": "res', fin=False))
    while time.monotonic() < until:
        writer.write(_frame(0x0, b"e", fin=False))
        await writer.drain()
        await asyncio.sleep(0.2)


async def _storm(port: int, until: float):
    # One connect and close every 20 ms: 20 of these make 1,000 connects per second.
    while time.monotonic() < until:
        async with connect(f"ws://127.0.0.1:{port}/ws", ping_interval=None):
            pass
        await asyncio.sleep(0.02)


PATTERNS = [
    ("quiet", None, 0),
    ("slowloris, 500 connections", _slowloris, 500),
    ("silent connections, 500", _silent, 500),
    ("slow consumers, 50", _slow_consumer, 50),
    ("ping flood, 20 connections", _ping_flood, 20),
    ("endless fragmented messages, 200", _fragments, 200),
    ("connect storm, 1,000 per second", _storm, 20),
]


async def _again(client, port: int, until: float):
    """Runs the hostile client again whenever the server cuts it off, until `until`."""
    while time.monotonic() < until:
        try:
            await client(port, until)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ConnectionError):
            await asyncio.sleep(0.05)
        except Exception:  # noqa: BLE001 (a websockets close: connect again)
            await asyncio.sleep(0.05)


def _hostile_process(index: int, count: int, port: int, until: float, niced: bool):
    client = PATTERNS[index][1]
    if niced:
        os.nice(19)

    async def run():
        await asyncio.gather(*(_again(client, port, until) for _ in range(count)))
    asyncio.run(run())


async def _player(server: Server, until: float, latencies: list):
    """Plays episodes (a fixed guess sequence) until `until`, recording each step's latency."""
    async with connect(server.ws, ping_interval=None) as ws:
        while time.monotonic() < until:
            await ws.send(json.dumps({"type": "reset", "data": {}}))
            await ws.recv()
            for guess in (10, 5, 15, 3, 7, 12, 17, 1, 20, 8):
                started = time.perf_counter()
                await ws.send(json.dumps({"type": "step", "data": {"message": f"\\boxed{{{guess}}}"}}))
                reply = json.loads(await ws.recv())
                latencies.append(time.perf_counter() - started)
                if reply["type"] != "observation" or reply["data"]["done"]:
                    break


def pattern_row(server: Server, index: int, seconds: float, players: int, niced: bool) -> dict:
    _, _, count = PATTERNS[index]
    until = time.monotonic() + seconds + 0.5
    hostile = None
    if count:
        hostile = multiprocessing.Process(
            target=_hostile_process, args=(index, count, server.port, until, niced))
        hostile.start()
    time.sleep(0.5)
    latencies: list = []
    cpu = server.cpu_seconds()

    async def play():
        await asyncio.gather(*(_player(server, until, latencies) for _ in range(players)))
    asyncio.run(play())
    cores = (server.cpu_seconds() - cpu) / seconds
    peak_rss, fds = server.rss_mb(), server.fds()
    hostile_cpu = 0.0
    if hostile:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        hostile.join(timeout=30)
        if hostile.is_alive():
            hostile.kill()
            hostile.join()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        hostile_cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    latencies.sort()
    return {
        "steps_s": len(latencies) / seconds,
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)],
        "rss_mb": peak_rss,
        "fds": fds,
        "cores": cores,
        "hostile_cores": hostile_cpu / seconds,
    }


# -- cycles -----------------------------------------------------------------------------------

async def _cycle(url: str, way: int):
    async with connect(url, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "reset", "data": {}}))
        await ws.recv()
        await ws.send(json.dumps({"type": "step", "data": {"message": "\\boxed{7}"}}))
        if way == 1:
            ws.transport.abort()
            return
        await ws.recv()
        if way == 2:
            ws.transport.abort()


async def _cycles(server: Server, count: int):
    for first in range(0, count, 100):
        await asyncio.gather(*(_cycle(server.ws, i % 3) for i in range(first, min(count, first + 100))),
                             return_exceptions=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10_000, help="idle sessions held")
    parser.add_argument("--seconds", type=float, default=5.0, help="per hostile pattern")
    parser.add_argument("--players", type=int, default=20, help="well-behaved sessions")
    parser.add_argument("--cycles", type=int, default=100_000)
    parser.add_argument("--only", default="", help="only the patterns whose name has this")
    parser.add_argument("--same-priority", action="store_true",
                        help="run the hostile clients at the players' CPU priority, not the lowest")
    parser.add_argument("serve_args", nargs="*", help="more `geode serve` flags, after --")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"`geode serve {ENV}` {' '.join(args.serve_args)}; {os.cpu_count()} cores shared by "
          f"the server and the client processes; {args.players} well-behaved sessions, "
          f"{args.seconds:g} s per pattern\n")
    print("| load | steps/s | p50 ms | p99 ms | p99 / quiet | server RSS MB | server fds | notes |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |", flush=True)
    if args.sessions:
        print(capacity(args.sessions, args.serve_args), flush=True)
    server = Server("--max-sessions", "4096", "--idle-timeout", "2", "--header-timeout", "2",
                    *args.serve_args)
    try:
        niced = not args.same_priority
        pattern_row(server, 0, 2, args.players, niced)  # warm-up: pools, caches, units
        quiet = None
        for index, (name, _, _) in enumerate(PATTERNS):
            if index and args.only not in name:
                continue
            row = pattern_row(server, index, args.seconds, args.players, niced)
            quiet = quiet or row["p99_ms"]
            print(f"| {name} | {row['steps_s']:,.0f} | {row['p50_ms']:.2f} | {row['p99_ms']:.2f} "
                  f"| {row['p99_ms'] / quiet:.2f}x | {row['rss_mb']:.0f} | {row['fds']} "
                  f"| server on {row['cores']:.2f} cores, hostile clients on "
                  f"{row['hostile_cores']:.2f} |",
                  flush=True)
        time.sleep(3)  # hostile sessions still open end on their idle timeout
        fds, rss = server.fds(), server.rss_mb()
        started = time.monotonic()
        asyncio.run(_cycles(server, args.cycles))
        took = time.monotonic() - started
        time.sleep(3)
        print(f"| {args.cycles:,} sessions opened and ended, a third each: clean close, dropped "
              f"after a reply, dropped mid-step ({took:.0f} s) | {args.cycles / took:,.0f} sessions/s "
              f"| | | | {rss:.0f} -> {server.rss_mb():.0f} | {fds} -> {server.fds()} | |")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
