"""Real servers for the trainers' door tests (``tests/doors/<door>``): ``geode serve`` and the
OpenAI-compatible ``geode-model-server``, each the release binary ``cargo test --release``
builds, started on a free loopback port and stopped when the ``with`` block ends.

    from servers import geode_serve, model_server
    with geode_serve("game:GuessTheNumber-v0") as url, model_server("bisect") as base_url:
        ...
"""

import contextlib
import os
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
GEODE = ROOT / "target/release/geode"
MODEL_SERVER = ROOT / "target/release/geode-model-server"


def _built(binary: Path, package: str) -> Path:
    if not binary.exists():  # built by `cargo test --release`; built here when run alone
        subprocess.run(["cargo", "build", "--release", "-p", package], cwd=ROOT, check=True)
    return binary


def _wait_listening(proc: subprocess.Popen, what: str) -> str:
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise RuntimeError(f"{what} did not start: {line}{proc.stderr.read()}")
    return line.rsplit(" ", 1)[1].strip()


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def geode_serve(env_id: str, *args: str) -> Iterator[str]:
    """``geode serve env_id --port 0 *args``; yields its base URL once ``/health`` answers, and
    fails the test if the server died while it ran."""
    command = [str(_built(GEODE, "geode-cli")), "serve", env_id, "--port", "0", *args]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "RUST_BACKTRACE": "1"})
    try:
        url = _wait_listening(proc, "geode serve")
        deadline = time.monotonic() + 10
        while True:
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("geode serve never answered /health")
            time.sleep(0.05)
        yield url
        assert proc.poll() is None, f"geode serve died: {proc.stderr.read()}"
    finally:
        _stop(proc)


@contextlib.contextmanager
def model_server(policy: str, *args: str, model: str = "geode-test") -> Iterator[str]:
    """``geode-model-server --policy policy *args``; yields its OpenAI base URL (``…/v1``)."""
    command = [str(_built(MODEL_SERVER, "geode-model-server")), "--listen", "127.0.0.1:0",
               "--model", model, "--policy", policy, *args]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        yield _wait_listening(proc, "geode-model-server") + "/v1"
    finally:
        _stop(proc)
