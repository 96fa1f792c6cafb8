"""NeMo Gym's servers for the door tests, each in its own process (``launch.py``) on a loopback
port, sharing one NeMo Gym global config as its orchestrator would hand it to them."""

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Dict, Iterator, Tuple

LAUNCH = Path(__file__).resolve().parent / "launch.py"
HOST = "127.0.0.1"
#: (NeMo Gym's server kind, its type name, the class launch.py runs) for each role in a test.
ROLES = {
    "geode": ("resources_servers", "geode", "geode.nemo_gym:GeodeResourcesServer"),
    "agent": ("responses_api_agents", "gymnasium_agent", "responses_api_agents.gymnasium_agent.app:GymnasiumAgent"),
    "model": ("responses_api_models", "vllm_model", "responses_api_models.vllm_model.app:VLLMModel"),
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def global_config(servers: Dict[str, dict]) -> dict:
    """NeMo Gym's global config for ``servers`` (role -> that server's own config), each given a
    free loopback port; the head server is named but never contacted."""
    config = {"head_server": {"host": HOST, "port": _free_port()}}
    for role, own in servers.items():
        kind, type_name, _ = ROLES[role]
        config[role] = {kind: {type_name: {"entrypoint": "app.py", "host": HOST, "port": _free_port(), **own}}}
    return config


def url(config: dict, role: str) -> str:
    """The base URL of ``role``'s server in ``config``."""
    own = next(iter(next(iter(config[role].values())).values()))
    return f"http://{own['host']}:{own['port']}"


def _wait_live(proc: subprocess.Popen, base: str) -> None:
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"NeMo Gym server at {base} did not start: {proc.stderr.read()}")


@contextlib.contextmanager
def nemo_gym(servers: Dict[str, dict]) -> Iterator[Tuple[dict, Dict[str, str]]]:
    """Starts NeMo Gym's server for each role in ``servers``; yields the global config and each
    role's base URL; stops them all."""
    config = global_config(servers)
    procs = []
    try:
        for role in servers:
            env = {**os.environ, "NEMO_GYM_CONFIG_DICT": json.dumps(config), "NEMO_GYM_CONFIG_PATH": role}
            proc = subprocess.Popen([sys.executable, str(LAUNCH), ROLES[role][2]], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            procs.append(proc)
            _wait_live(proc, url(config, role))
        yield config, {role: url(config, role) for role in servers}
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
