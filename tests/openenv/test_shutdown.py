"""``geode serve``'s lifecycle: SIGTERM lets a step in flight finish, closes every WebSocket
session with 1001 and a reason, refuses new connections and exits 0; a call longer than the
grace period does not hold the exit; after SIGKILL a new server takes the same port at once."""

import asyncio
import json
import signal
import time

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from conftest import hostile_plugin, start

# `hostile:slow` spins for the number of iterations its action names: 1e9 take about 1 s here,
# so the server gets fuel for 100x that.
SLOW = ["--fuel", "100000000000", "--deadline", "60"]
ONE_SECOND_OF_SPINNING = "1000000000"


async def _reset(ws):
    await ws.send(json.dumps({"type": "reset", "data": {}}))
    return json.loads(await ws.recv())


async def _closed(ws):
    """The close code and reason the server ends `ws` with (after any replies still queued)."""
    replies = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            replies.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    return replies, closed.value.rcvd.code, closed.value.rcvd.reason


def test_sigterm_finishes_the_step_in_flight_then_closes_sessions_and_exits_0():
    server = start("hostile:slow", *SLOW, plugins=[hostile_plugin()])
    try:
        async def run():
            async with connect(f"{server.ws_url}/ws") as idle, \
                    connect(f"{server.ws_url}/ws") as busy:
                await _reset(idle)
                await _reset(busy)
                await busy.send(json.dumps(
                    {"type": "step", "data": {"message": ONE_SECOND_OF_SPINNING}}))
                await asyncio.sleep(0.3)  # the step is running on a worker now
                server.proc.send_signal(signal.SIGTERM)
                idle_end = await _closed(idle)
                refused = await asyncio.to_thread(_health_refused, server.url)
                busy_end = await _closed(busy)
                return idle_end, refused, busy_end
        (idle_replies, idle_code, idle_reason), refused, (replies, code, reason) = asyncio.run(run())
        assert (idle_replies, idle_code, idle_reason) == ([], 1001, "server shutting down")
        assert refused, "the server still accepted connections after SIGTERM"
        assert [r["type"] for r in replies] == ["observation"], replies
        assert replies[0]["data"]["observation"]["text"].startswith(f"spun {ONE_SECOND_OF_SPINNING}")
        assert (code, reason) == (1001, "server shutting down")
        assert server.proc.wait(timeout=15) == 0
        stderr = server.proc.stderr.read()
        assert "SIGTERM" in stderr and "geode serve: stopped" in stderr, stderr
    finally:
        server.proc.kill()
        server.proc.wait()


def _health_refused(url: str) -> bool:
    try:
        httpx.get(f"{url}/health", timeout=2)
    except httpx.TransportError:
        return True
    return False


def test_a_call_longer_than_the_grace_period_does_not_hold_the_exit():
    server = start("hostile:slow", *SLOW, "--grace-period", "0.5", plugins=[hostile_plugin()])
    try:
        async def run():
            async with connect(f"{server.ws_url}/ws") as ws:
                await _reset(ws)
                # About 30 s of spinning: far past the grace period.
                await ws.send(json.dumps({"type": "step", "data": {"message": "30000000000"}}))
                await asyncio.sleep(0.3)
                started = time.monotonic()
                server.proc.send_signal(signal.SIGTERM)
                code = await asyncio.to_thread(server.proc.wait, 15)
                return code, time.monotonic() - started
        code, took = asyncio.run(run())
        assert code == 0
        assert took < 5, f"exit took {took:.1f} s with a 0.5 s grace period"
        assert "still in a call" in server.proc.stderr.read()
    finally:
        server.proc.kill()
        server.proc.wait()


def test_after_sigkill_a_new_server_serves_on_the_same_port_at_once():
    first = start("game:GuessTheNumber-v0-easy")
    port = int(first.url.rsplit(":", 1)[1])

    async def play(server):
        async with connect(f"{server.ws_url}/ws") as ws:
            return await _reset(ws)

    try:
        assert asyncio.run(play(first))["type"] == "observation"
    finally:
        first.proc.kill()
        first.proc.wait()
    started = time.monotonic()
    second = start("game:GuessTheNumber-v0-easy", port=port)
    try:
        assert time.monotonic() - started < 5
        assert asyncio.run(play(second))["type"] == "observation"
    finally:
        second.proc.terminate()
        assert second.proc.wait(timeout=15) == 0
