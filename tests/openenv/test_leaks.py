"""Nothing leaks: thousands of WebSocket sessions opened and ended every way a client can end
one (a clean close, a dropped connection, a client gone in the middle of a step) leave the
server's sessions, file descriptors and memory where they were; a server at capacity still
answers /health and /metrics; and thousands of idle sessions, sharing instances, cost under
64 KiB each."""

import asyncio
import json
import os
import resource

import httpx
import pytest
from websockets.asyncio.client import connect

from conftest import stopped_cleanly

CYCLES = 5_000
AT_ONCE = 50


def _metric(url: str, name: str) -> float:
    for line in httpx.get(f"{url}/metrics").text.splitlines():
        if line.startswith(f"{name} "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in /metrics")


def _fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def _cycle(ws_url: str, way: int):
    async with connect(f"{ws_url}/ws") as ws:
        await ws.send(json.dumps({"type": "reset", "data": {"seed": way}}))
        await ws.recv()
        await ws.send(json.dumps({"type": "step", "data": {"message": "\\boxed{7}"}}))
        if way == 1:  # gone in the middle of the step, without a close
            ws.transport.abort()
            return
        await ws.recv()
        if way == 2:  # dropped after a reply, without a close
            ws.transport.abort()
            return
        await ws.send(json.dumps({"type": "close"}))


async def _cycles(ws_url: str, count: int):
    for first in range(0, count, AT_ONCE):
        await asyncio.gather(*(_cycle(ws_url, i % 3) for i in range(first, first + AT_ONCE)))


async def _settled(url: str):
    for _ in range(100):
        if _metric(url, "geode_serve_sessions") == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{_metric(url, 'geode_serve_sessions')} sessions never ended")


def test_thousands_of_sessions_ended_every_way_leave_nothing_behind():
    with stopped_cleanly("game:GuessTheNumber-v0-easy", "--max-sessions", "64") as server:
        async def run():
            await _cycles(server.ws_url, 500)  # warm-up: pools and allocator caches fill
            await _settled(server.url)
            before = (_fds(server.proc.pid), server.rss_bytes())
            await _cycles(server.ws_url, CYCLES)
            await _settled(server.url)
            # A session's slot is freed just before its socket is closed: give the last
            # sockets a moment.
            for _ in range(100):
                if _fds(server.proc.pid) <= before[0]:
                    break
                await asyncio.sleep(0.05)
            return before, (_fds(server.proc.pid), server.rss_bytes())
        (fds_before, rss_before), (fds_after, rss_after) = asyncio.run(run())
        assert fds_after <= fds_before, f"file descriptors {fds_before} -> {fds_after}"
        assert rss_after < rss_before + (16 << 20), \
            f"resident memory grew {(rss_after - rss_before) >> 20} MiB over {CYCLES} sessions"
        assert _metric(server.url, "geode_serve_sessions_opened_total") >= CYCLES + 500


def test_a_full_server_refuses_with_capacity_reached_and_still_reports():
    with stopped_cleanly("game:GuessTheNumber-v0-easy", "--max-sessions", "8") as server:
        async def run():
            held = [await connect(f"{server.ws_url}/ws") for _ in range(8)]
            for ws in held:
                await ws.send(json.dumps({"type": "reset", "data": {}}))
                assert json.loads(await ws.recv())["type"] == "observation"
            async with connect(f"{server.ws_url}/ws") as extra:
                refused = json.loads(await extra.recv())
            health = await asyncio.to_thread(httpx.get, f"{server.url}/health")
            sessions = await asyncio.to_thread(_metric, server.url, "geode_serve_sessions")
            refusals = await asyncio.to_thread(
                _metric, server.url, 'geode_serve_failures_total{code="CAPACITY_REACHED"}')
            for ws in held:
                await ws.close()
            return refused, health.status_code, sessions, refusals
        refused, health, sessions, refusals = asyncio.run(run())
        assert refused["type"] == "error" and refused["data"]["code"] == "CAPACITY_REACHED"
        assert (health, sessions, refusals) == (200, 8, 1)


@pytest.mark.parametrize("per_instance", [1, 64])
def test_more_sessions_than_the_default_instance_pool_are_all_served(per_instance):
    # The runtime's default pool holds 2,048 live instances; `geode serve` sizes its pool to
    # --max-sessions, so every one of 2,100 sessions gets its env, in an instance of its own
    # (1) or sharing one with up to 63 others (64, the default).
    count = 2_100
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < count + 256:
        pytest.skip(f"the open-file hard limit ({hard}) is under {count + 256}")
    if soft < count + 256:  # this client holds a socket per session too
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 1024), hard))
    with stopped_cleanly("game:GuessTheNumber-v0-easy", "--max-sessions", str(count),
                         "--envs-per-instance", str(per_instance)) as server:
        async def run():
            held, kinds = [], {}

            async def one():
                ws = await connect(f"{server.ws_url}/ws", ping_interval=None)
                held.append(ws)
                await ws.send(json.dumps({"type": "reset", "data": {}}))
                reply = json.loads(await ws.recv())
                kind = reply["type"] if reply["type"] != "error" else reply["data"]["message"]
                kinds[kind] = kinds.get(kind, 0) + 1

            rss_before = server.rss_bytes()
            for _ in range(0, count, 100):
                await asyncio.gather(*(one() for _ in range(100)))
            rss_held = server.rss_bytes()
            sessions = await asyncio.to_thread(_metric, server.url, "geode_serve_sessions")
            instances = await asyncio.to_thread(_metric, server.url, "geode_serve_instances")
            await asyncio.gather(*(ws.close() for ws in held))
            return kinds, sessions, instances, (rss_held - rss_before) / count
        kinds, sessions, instances, per_session = asyncio.run(run())
        assert kinds == {"observation": count}
        assert sessions == count
        if per_instance == 1:
            assert instances == 0, "no shared instances"
        else:
            # Full instances of 64, and at most one partly filled per worker thread.
            assert count // 64 <= instances <= count // 64 + os.cpu_count(), instances
            assert per_session < 64 * 1024, f"{per_session / 1024:.0f} KiB per idle session"
