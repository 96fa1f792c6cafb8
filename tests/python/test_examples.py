"""The Python examples run (briefly)."""

import subprocess
import sys

from conftest import ROOT

EXAMPLES = ROOT / "examples/python"


def run(*args):
    out = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_reinforce_rebn_learns():
    out = run(EXAMPLES / "reinforce_rebn.py", "--episodes", "8000")
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    first, last = float(rows[0][1]), float(rows[-1][1])
    assert last > first + 0.1 and last > 0.9, out


def test_trainer_adapter():
    out = run(EXAMPLES / "trainer_adapter.py")
    assert "batched:" in out and "async:" in out


def test_multiagent_self_play():
    out = run(EXAMPLES / "multiagent_self_play.py", "--envs", "8", "--steps", "40", "--games", "40")
    assert "self-play ma:TicTacToe-v0" in out
    relay = next(line for line in out.splitlines() if "ma:FactRelay-v0" in line)
    assert "'answerer': 1.0" in relay, relay  # the scripted pair always cooperates to success
    wins = int(out.split("won ")[1].split(" of")[0])
    assert wins > 40 * 0.6, out
