"""examples/serve runs against a real ``geode serve``."""

import subprocess
import sys

from conftest import ROOT, serve


def test_openenv_client_example():
    with serve("game:GuessTheNumber-v0-hard") as server:
        out = subprocess.run(
            [sys.executable, str(ROOT / "examples/serve/openenv_client.py"), "--url", server.url,
             "--episodes", "3"],
            capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()
    assert len(lines) == 3 and all("return +1.0" in line for line in lines), out.stdout
