"""Fixtures of the OpenEnv protocol tests: the real ``target/release/geode serve`` binary,
started per test module on a free loopback port. Run under both OpenEnv venvs, openenv-core 0.3's
and openenv 0.10's (``test_openenv10.py`` runs in the second only):
``bash host/serve/openenv-venv.sh && target/openenv-venv/bin/python -m pytest -q tests/openenv``
``bash host/serve/openenv-venv.sh 0.10 && target/openenv10-venv/bin/python -m pytest -q tests/openenv``."""

import contextlib
import functools
import json
import os
import subprocess
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
GEODE = ROOT / "target/release/geode"
HOSTILE = ROOT / "target/plugins/wasm32-wasip2/plugin/hostile.wasm"
PY_VENV = ROOT / "target/py-venv/bin/python"


def hostile_plugin() -> Path:
    """``tests/plugins/hostile`` as a component (built by ``cargo test``; built here if missing)."""
    if not HOSTILE.exists():
        subprocess.run(
            ["cargo", "build", "--profile", "plugin", "--target", "wasm32-wasip2", "-p", "hostile",
             "--target-dir", str(ROOT / "target/plugins")],
            cwd=ROOT, check=True, capture_output=True,
        )
    return HOSTILE


def direct(env_id: str, config: dict, wrappers: list, episodes: list) -> list:
    """The episodes on geode's direct path (the ``geode`` package in ``target/py-venv``, through
    ``direct.py``): per episode, its first observation and each step's (observation, reward,
    terminated, truncated). Skips the calling test when that venv is not built."""
    request = json.dumps({"id": env_id, "config": config, "wrappers": wrappers,
                          "episodes": episodes}, sort_keys=True)
    return _direct(request)


@functools.lru_cache(maxsize=None)
def _direct(request: str) -> list:
    if not PY_VENV.exists():
        pytest.skip("target/py-venv (the geode package, the direct path) is not built")
    out = subprocess.run([str(PY_VENV), str(Path(__file__).with_name("direct.py"))],
                         input=request, capture_output=True, text=True, timeout=300, check=True)
    return json.loads(out.stdout)


class Server:
    """A running ``geode serve``: its base URL and process."""

    def __init__(self, proc: subprocess.Popen, url: str):
        self.proc = proc
        self.url = url
        self.ws_url = url.replace("http://", "ws://")

    def rss_bytes(self) -> int:
        """The server's resident memory."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0


def start(env_id: str, *args: str, plugins=(), port: int = 0) -> Server:
    """Starts ``geode serve env_id --port PORT *args`` and returns a :class:`Server` once it
    answers ``/health``. The caller ends it."""
    if not GEODE.exists():  # built by `cargo test --release`; built here when run alone
        subprocess.run(["cargo", "build", "--release", "-p", "geode-cli"], cwd=ROOT, check=True)
    command = [str(GEODE)]
    for plugin in plugins:
        command += ["--plugin", str(plugin)]
    command += ["serve", env_id, "--port", str(port), *args]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "RUST_BACKTRACE": "1"})
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise RuntimeError(f"geode serve did not start: {line}{proc.stderr.read()}")
    url = line.rsplit(" ", 1)[1].strip()
    deadline = time.monotonic() + 10
    while httpx.get(f"{url}/health").status_code != 200:
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("geode serve never answered /health")
        time.sleep(0.05)
    return Server(proc, url)


@contextlib.contextmanager
def stopped_cleanly(env_id: str, *args: str, plugins=()):
    """Starts a server like :func:`start`, yields it, then stops it with SIGTERM and checks that
    it exits 0."""
    server = start(env_id, *args, plugins=plugins)
    try:
        yield server
    finally:
        server.proc.terminate()
        assert server.proc.wait(timeout=15) == 0, server.proc.stderr.read()


@contextlib.contextmanager
def serve(env_id: str, *args: str, plugins=()):
    """Starts ``geode serve env_id --port 0 *args`` and yields a :class:`Server` once it listens."""
    server = start(env_id, *args, plugins=plugins)
    try:
        yield server
        assert server.proc.poll() is None, f"geode serve died: {server.proc.stderr.read()}"
    finally:
        server.proc.terminate()
        server.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def hostile():
    """``geode serve hostile:healthy`` (panics on the action ``trap``)."""
    with serve("hostile:healthy", plugins=[hostile_plugin()]) as server:
        yield server
