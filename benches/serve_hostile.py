"""``geode serve`` under hostile load, over loopback: well-behaved WebSocket sessions play
GuessTheNumber while one hostile pattern at a time runs beside them, then 100,000 sessions are
opened and ended three ways. Prints one table: the well-behaved sessions' steps/s, p50 and p99
step latency under each pattern (and p99 against the quiet run), the server's RSS and file
descriptors; then the server's fds and RSS before and after the cycles.

    cargo build --release -p geode-cli
    target/openenv-venv/bin/python benches/serve_hostile.py [--seconds 5] [--cycles 100000]

Patterns: slowloris (headers a byte at a time), silent connections, slow consumers (WebSocket
clients that send without reading), a ping flood, fragmented messages that never end, and a
connect storm (1,000 WebSocket connects per second). Client and server share the machine's
cores: the hostile clients' own CPU is part of what the well-behaved ones see.
"""

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import time
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
GEODE = ROOT / "target/release/geode"
KEY = "dGhlIHNhbXBsZSBub25jZQ=="


def _frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    mask = b"\x01\x02\x03\x04"
    return bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(payload))


class Server:
    def __init__(self, *args: str):
        self.proc = subprocess.Popen(
            [str(GEODE), "serve", "game:GuessTheNumber-v0-easy", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().rsplit(" ", 1)[1].strip()
        self.host, self.port = "127.0.0.1", int(self.url.rsplit(":", 1)[1])
        self.ws = self.url.replace("http://", "ws://") + "/ws"

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))


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


async def _raw(server: Server, upgrade: bool):
    reader, writer = await asyncio.open_connection(server.host, server.port)
    if upgrade:
        writer.write((f"GET /ws HTTP/1.1\r\nHost: geode\r\nUpgrade: websocket\r\nConnection: "
                      f"Upgrade\r\nSec-WebSocket-Key: {KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
    return reader, writer


async def _forever(make, until: float):
    """Runs the hostile client `make` again whenever the server cuts it off, until `until`."""
    while time.monotonic() < until:
        try:
            await make(until)
        except (OSError, asyncio.IncompleteReadError, ConnectionError):
            await asyncio.sleep(0.05)


def _slowloris(server):
    async def one(until):
        _, writer = await _raw(server, upgrade=False)
        writer.write(b"GET /health HTTP/1.1\r\nHost: geode\r\n")
        while time.monotonic() < until:
            writer.write(b"X")
            await writer.drain()
            await asyncio.sleep(0.5)
    return one


def _silent(server):
    async def one(until):
        reader, _ = await _raw(server, upgrade=False)
        await asyncio.wait_for(reader.read(1), max(0.01, until - time.monotonic()))
    return one


def _flood(frame: bytes, pause: float):
    """A client that upgrades, then sends `frame` (64 at a time) as fast as the server takes
    them, pausing `pause` s between batches, and never reads."""
    def pattern(server):
        async def one(until):
            _, writer = await _raw(server, upgrade=True)
            while time.monotonic() < until:
                writer.write(frame * 64)
                await asyncio.wait_for(writer.drain(), max(0.01, until - time.monotonic()))
                await asyncio.sleep(pause)
        return one
    return pattern


def _fragments(server):
    async def one(until):
        _, writer = await _raw(server, upgrade=True)
        writer.write(_frame(0x1, b'{"type": "res', fin=False))
        while time.monotonic() < until:
            writer.write(_frame(0x0, b"e", fin=False))
            await writer.drain()
            await asyncio.sleep(0.2)
    return one


def _storm(server):
    async def one(until):
        # One connect and close every 20 ms: 50 of these make 2,500 connects per second.
        while time.monotonic() < until:
            async with connect(server.ws, ping_interval=None):
                pass
            await asyncio.sleep(0.02)
    return one


PATTERNS = [
    ("quiet", None, 0),
    ("slowloris, 500 connections", _slowloris, 500),
    ("silent connections, 500", _silent, 500),
    ("slow consumers, 50", _flood(_frame(0x1, b'{"type":"state"}'), 0), 50),
    ("ping flood, 20 connections", _flood(_frame(0x9, b"ping"), 0.001), 20),
    ("endless fragmented messages, 200", _fragments, 200),
    ("connect storm, 20 clients", _storm, 20),
]


async def _measure(server: Server, pattern, count: int, seconds: float, players: int):
    until = time.monotonic() + seconds
    hostile = [asyncio.create_task(_forever(pattern(server), until)) for _ in range(count)] \
        if pattern else []
    await asyncio.sleep(0.3)
    latencies: list = []
    await asyncio.gather(*(_player(server, until, latencies) for _ in range(players)))
    peak_rss, fds = server.rss_mb(), server.fds()
    for task in hostile:
        task.cancel()
    await asyncio.gather(*hostile, return_exceptions=True)
    latencies.sort()
    return {
        "steps_s": len(latencies) / (seconds - 0.3),
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)],
        "rss_mb": peak_rss,
        "fds": fds,
    }


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
        await asyncio.gather(*(_cycle(server.ws, i % 3) for i in range(first, first + 100)),
                             return_exceptions=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--cycles", type=int, default=100_000)
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    server = Server("--max-sessions", "4096", "--idle-timeout", "2", "--header-timeout", "2")
    try:
        time.sleep(0.5)
        print(f"{args.players} well-behaved sessions; {args.seconds:g} s per pattern; "
              f"{os.cpu_count()} cores shared by client and server")
        print("| pattern | steps/s | p50 ms | p99 ms | p99 / quiet | server RSS MB | server fds |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        quiet = None
        for name, pattern, count in PATTERNS:
            row = asyncio.run(_measure(server, pattern, count, args.seconds, args.players))
            quiet = quiet or row["p99_ms"]
            print(f"| {name} | {row['steps_s']:,.0f} | {row['p50_ms']:.2f} | {row['p99_ms']:.2f} "
                  f"| {row['p99_ms'] / quiet:.2f}x | {row['rss_mb']:.0f} | {row['fds']} |", flush=True)
        time.sleep(3)  # hostile sessions still open end on their idle timeout
        fds, rss = server.fds(), server.rss_mb()
        started = time.monotonic()
        asyncio.run(_cycles(server, args.cycles))
        took = time.monotonic() - started
        time.sleep(3)
        print(f"\n{args.cycles:,} sessions opened and ended (clean close, dropped after a reply, "
              f"dropped mid-step) in {took:.0f} s: server fds {fds} -> {server.fds()}, "
              f"RSS {rss:.0f} -> {server.rss_mb():.0f} MB")
    finally:
        server.proc.terminate()
        server.proc.wait(timeout=30)


if __name__ == "__main__":
    main()
