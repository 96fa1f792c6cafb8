"""Clients that try to hold ``geode serve`` without playing: headers sent a byte at a time
(slowloris), a connection that says nothing, a kept-alive connection left idle, a WebSocket
client that sends without ever reading its replies, a ping flood, and a fragmented message
that never ends. Each is cut off within its bound while a well-behaved client is served."""

import asyncio
import json
import socket
import time

import httpx
from websockets.asyncio.client import connect

from conftest import stopped_cleanly


def _port(server) -> int:
    return int(server.url.rsplit(":", 1)[1])


def _closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> float | None:
    """Seconds until the server closes `sock` (reading whatever it says first), sending one byte
    of `trickle` every 0.2 s meanwhile; None if it is still open after `seconds`."""
    started = time.monotonic()
    sock.settimeout(0.2)
    sent = 0
    while time.monotonic() - started < seconds:
        if trickle:
            try:
                sock.send(trickle[sent % len(trickle):][:1])
                sent += 1
            except OSError:
                return time.monotonic() - started
        try:
            if sock.recv(65536) == b"":
                return time.monotonic() - started
        except socket.timeout:
            continue
        except OSError:
            return time.monotonic() - started
    return None


def test_slow_headers_and_silent_connections_are_closed_while_others_are_served():
    with stopped_cleanly("game:GuessTheNumber-v0-easy", "--header-timeout", "1") as server:
        slow = socket.create_connection(("127.0.0.1", _port(server)))
        slow.sendall(b"GET /health HTTP/1.1\r\nHost: geode\r\n")
        silent = socket.create_connection(("127.0.0.1", _port(server)))
        kept = socket.create_connection(("127.0.0.1", _port(server)))
        kept.sendall(b"GET /health HTTP/1.1\r\nHost: geode\r\n\r\n")
        assert kept.recv(4096).startswith(b"HTTP/1.1 200")
        # A well-behaved client beside them is served at once.
        started = time.monotonic()
        assert httpx.get(f"{server.url}/health").status_code == 200
        assert time.monotonic() - started < 1
        assert _closed_within(slow, 5, trickle=b"X-Slow: yes\r\n") is not None, \
            "a client trickling its headers kept its connection"
        assert _closed_within(silent, 5) is not None, "a silent connection was kept"
        assert _closed_within(kept, 5) is not None, "an idle kept-alive connection was kept"
        assert httpx.get(f"{server.url}/health").status_code == 200


def _upgraded(server) -> socket.socket:
    """A raw socket through the /ws handshake."""
    sock = socket.create_connection(("127.0.0.1", _port(server)))
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: geode\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
    assert b"101" in sock.recv(4096).split(b"\r\n")[0]
    return sock


def _frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A masked client frame (payloads under 126 bytes)."""
    mask = b"\x01\x02\x03\x04"
    return bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(payload))


def _slot_freed_within(server, seconds: float):
    """Plays a reset as soon as the server's only slot is free again; fails after `seconds`."""
    async def play():
        async with connect(f"{server.ws_url}/ws") as ws:
            await ws.send(json.dumps({"type": "reset", "data": {}}))
            return json.loads(await ws.recv())

    started = time.monotonic()
    while True:
        reply = asyncio.run(play())
        if reply["type"] == "observation":
            return
        assert reply["data"]["code"] == "CAPACITY_REACHED", reply
        assert time.monotonic() - started < seconds, "the slot was never freed"
        time.sleep(0.2)


def test_a_ping_flood_is_closed_with_1008_and_its_slot_freed():
    with stopped_cleanly("game:GuessTheNumber-v0-easy", "--idle-timeout", "30", "--max-sessions", "1") as server:
        rss_before = server.rss_bytes()
        flood = _upgraded(server)
        flood.setblocking(False)
        received, started, closed = b"", time.monotonic(), None
        # Pings as fast as the socket takes them, reading what comes back: past 100 per second
        # the server closes the session (long before the 30 s idle timeout).
        while closed is None and time.monotonic() - started < 5:
            try:
                flood.send(_frame(0x9, b"ping") * 64)
            except BlockingIOError:
                pass
            except OSError:
                closed = time.monotonic() - started
            try:
                chunk = flood.recv(1 << 20)
                if chunk == b"":
                    closed = time.monotonic() - started
                received += chunk[-256:]
            except BlockingIOError:
                time.sleep(0.001)
            except OSError:
                closed = time.monotonic() - started
        assert closed is not None and closed < 3, f"the flood went on for {closed} s"
        # The server sends a close frame with 1008 and its reason, then closes; with the flood
        # still unread on its side the kernel may reset the connection and drop that frame.
        if b"\x88" in received:
            assert b"\x03\xf0more than 100 pings or pongs per second" in received
        _slot_freed_within(server, 5)
        assert server.rss_bytes() < rss_before + (32 << 20)


def test_an_endless_fragmented_message_is_cut_off_by_the_idle_timeout():
    with stopped_cleanly("game:GuessTheNumber-v0-easy", "--idle-timeout", "1", "--max-sessions", "1") as server:
        # A text message whose final fragment never comes, continued a byte at a time.
        endless = _upgraded(server)
        endless.sendall(_frame(0x1, b'{"type": "res', fin=False))
        assert _closed_within(endless, 5, trickle=_frame(0x0, b"e", fin=False)) is not None
        _slot_freed_within(server, 5)


def test_a_client_that_never_reads_loses_its_session_and_frees_its_slot():
    with stopped_cleanly("game:GuessTheNumber-v0-easy", "--idle-timeout", "1", "--max-sessions", "1") as server:
        hog = _upgraded(server)
        # Text frames of {"type":"state"}, sent and never read: the replies fill the socket
        # buffers, then the server's send waits.
        frame = _frame(0x1, b'{"type":"state"}')
        hog.setblocking(False)
        flooded = 0
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                flooded += hog.send(frame * 256)
            except BlockingIOError:
                time.sleep(0.05)  # both buffers full: the server stopped reading
                if flooded > 1_000_000:
                    break
        rss_before = server.rss_bytes()

        async def play():
            async with connect(f"{server.ws_url}/ws") as ws:
                await ws.send(json.dumps({"type": "reset", "data": {}}))
                return json.loads(await ws.recv())

        # The hog's session ends one idle timeout after its replies stopped moving; then the
        # only slot is free for a client that reads.
        started = time.monotonic()
        reply = None
        while reply is None or reply["type"] == "error":
            assert time.monotonic() - started < 10, f"the slot was never freed: {reply}"
            reply = asyncio.run(play())
            if reply["type"] == "error":
                assert reply["data"]["code"] == "CAPACITY_REACHED"
                time.sleep(0.2)
        assert reply["type"] == "observation"
        assert server.rss_bytes() < rss_before + (64 << 20)
        hog.close()


def test_a_body_trickled_after_its_headers_is_cut_off_at_the_deadline():
    with stopped_cleanly("game:GuessTheNumber-v0-easy", "--header-timeout", "1") as server:
        slow = socket.create_connection(("127.0.0.1", _port(server)))
        slow.sendall(b"POST /reset HTTP/1.1\r\nHost: geode\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 4096\r\n\r\n{")
        never = socket.create_connection(("127.0.0.1", _port(server)))
        never.sendall(b"POST /step HTTP/1.1\r\nHost: geode\r\nContent-Length: 10\r\n\r\n")
        # A well-behaved client is served meanwhile.
        assert httpx.post(f"{server.url}/reset", json={}).status_code == 200
        for sock, trickle in ((slow, b" "), (never, b"")):
            said = _answer_until_closed(sock, trickle, within=5)
            assert said.startswith(b"HTTP/1.1 408"), said
            assert b"did not arrive within 1 s" in said, said
            assert b"connection: close" in said.lower(), said


def _answer_until_closed(sock: socket.socket, trickle: bytes, within: float) -> bytes:
    """All the server says on `sock` until it closes it (sending a byte of `trickle` every 0.2 s
    meanwhile); fails if that takes longer than `within` seconds."""
    started = time.monotonic()
    sock.settimeout(0.2)
    said = b""
    while time.monotonic() - started < within:
        if trickle:
            try:
                sock.send(trickle)
            except OSError:
                return said
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            return said
        if not chunk:
            return said
        said += chunk
    raise AssertionError(f"still open after {within} s: {said!r}")
