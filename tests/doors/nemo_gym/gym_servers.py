"""NeMo Gym's servers for the door tests, each in its own process (``launch.py``) on a loopback
port, sharing one NeMo Gym global config as its orchestrator would hand it to them."""

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Dict, Iterator, Tuple

LAUNCH = Path(__file__).resolve().parent / "launch.py"
HOST = "127.0.0.1"
#: (NeMo Gym's server kind, its type name, the class launch.py runs) for each role a server plays.
ROLES = {
    "geode": ("resources_servers", "geode", "geode.nemo_gym:GeodeResourcesServer"),
    "agent": ("responses_api_agents", "gymnasium_agent", "responses_api_agents.gymnasium_agent.app:GymnasiumAgent"),
    "model": ("responses_api_models", "vllm_model", "responses_api_models.vllm_model.app:VLLMModel"),
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def global_config(servers: Dict[str, Tuple[str, dict]]) -> dict:
    """NeMo Gym's global config for ``servers`` (name -> its role and its own config), each given a
    free loopback port; the head server is named but never contacted."""
    config = {"head_server": {"host": HOST, "port": _free_port()}}
    for name, (role, own) in servers.items():
        kind, type_name, _ = ROLES[role]
        config[name] = {kind: {type_name: {"entrypoint": "app.py", "host": HOST, "port": _free_port(), **own}}}
    return config


def url(config: dict, name: str) -> str:
    """The base URL of server ``name`` in ``config``."""
    own = next(iter(next(iter(config[name].values())).values()))
    return f"http://{own['host']}:{own['port']}"


def _wait_live(proc: subprocess.Popen, base: str) -> None:
    deadline = time.monotonic() + 90
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    proc.kill()
    proc.stderr.seek(0)
    raise RuntimeError(f"NeMo Gym server at {base} did not start: {proc.stderr.read()}")


@contextlib.contextmanager
def nemo_gym(servers: Dict[str, Tuple[str, dict]]) -> Iterator[Dict[str, str]]:
    """Starts NeMo Gym's server for each of ``servers`` (name -> its role in ``ROLES`` and its own
    config), all at once; yields each one's base URL by name; stops them all."""
    config = global_config(servers)
    procs = {}
    try:
        for name, (role, _) in servers.items():
            env = {**os.environ, "NEMO_GYM_CONFIG_DICT": json.dumps(config), "NEMO_GYM_CONFIG_PATH": name}
            procs[name] = subprocess.Popen([sys.executable, str(LAUNCH), ROLES[role][2]], env=env,
                                           stdout=subprocess.DEVNULL, stderr=tempfile.TemporaryFile("w+"))
        for name, proc in procs.items():
            _wait_live(proc, url(config, name))
        yield {name: url(config, name) for name in servers}
    finally:
        for proc in procs.values():
            proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
