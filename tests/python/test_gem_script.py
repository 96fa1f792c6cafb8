"""A GEM script runs unchanged with ``import geode as gem`` and, seeded, plays the same
episodes as GEM itself (when a GEM install is around to compare with)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

SCRIPT = Path(__file__).with_name("gem_script.py")
# GEM's wrapper_factory imports `requests` for its search tool; the script never searches.
RUN_UNDER_GEM = (
    "import runpy, sys, types; sys.modules.setdefault('requests', types.ModuleType('requests'));"
    f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')"
)


def transcript(python: str, module: str, code=None) -> list:
    args = [python, "-c", code] if code else [python, str(SCRIPT)]
    out = subprocess.run(args, env={**os.environ, "GEM_MODULE": module}, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def gem_python():
    candidates = [os.environ.get("GEM_PYTHON"), ROOT / "target/bench-venv/bin/python", "/tmp/gemvenv/bin/python"]
    for python in filter(None, candidates):
        if Path(python).exists() and subprocess.run([str(python), "-c", "import gem"],
                                                   capture_output=True).returncode == 0:
            return str(python)
    return None


def test_script_runs_on_geode():
    episodes = transcript(sys.executable, "geode")
    assert len(episodes) == 2 and all(len(e) > 1 for e in episodes)


def test_seeded_episodes_match_gem():
    python = gem_python()
    if python is None:
        pytest.skip("no GEM install to compare with (set GEM_PYTHON)")
    assert transcript(sys.executable, "geode") == transcript(python, "gem", RUN_UNDER_GEM)
