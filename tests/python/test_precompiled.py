"""Components compiled ahead (``python -m geode.precompile``, run by host/python/dev-install.sh):
a fresh process with an empty compile cache gets its first code, math and tool rewards without
compiling anything."""

import json
import os
import subprocess
import sys
from pathlib import Path

FIRST_REWARDS = r"""
import json
import geode as gem
import geode.sandbox
from geode.tools import PythonCodeTool
from geode.utils.math_grader import boxed_reward_fn

env = gem.make("code:CodeContest", timeout=5)
env.reset(seed=109)  # "Sum of two"
answer = "```python\nimport numpy as np\nprint(int(np.array(input().split(), dtype=np.int64).sum()))\n```"
code_reward = env.step(answer)[1]
math_reward = boxed_reward_fn("So the answer is $\\boxed{\\frac{1}{2}}$.", "0.5")[1]
tool = PythonCodeTool(timeout=5).execute_action("<python>print(sum(range(10)))</python>")
print(json.dumps([code_reward, math_reward, tool[2]]))
"""


def test_the_package_ships_its_components_compiled(gem):
    from geode.precompile import precompile

    done = precompile()
    names = {item.name for item in done}
    assert {"python-runner", "python-runner-numpy", "math-grader", "guess-the-number"} <= names
    assert not any(item.compiled for item in done), "dev-install.sh compiled them already"
    folder = Path(gem.__file__).parent / "geode-precompiled"
    assert all(item.path.parent == folder and item.path.stat().st_size > 0 for item in done)


def test_first_rewards_in_a_fresh_process_compile_nothing(tmp_path):
    cache = tmp_path / "cache"
    env = dict(os.environ, GEODE_CACHE_DIR=str(cache))
    env.pop("GEODE_PRECOMPILED_DIR", None)
    out = subprocess.run([sys.executable, "-c", FIRST_REWARDS], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    code_reward, math_reward, tool_observation = json.loads(out.stdout.splitlines()[-1])
    assert (code_reward, math_reward) == (1.0, 1.0) and "45" in tool_observation
    compiled = list(cache.glob("*.cwasm")) if cache.exists() else []
    assert compiled == [], f"compiled on first use: {compiled}"


def test_precompile_into_a_directory_given_on_the_command_line_rejects_a_file(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    out = subprocess.run([sys.executable, "-m", "geode.precompile", "--dir", str(blocker)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode != 0 and "a-file" in out.stderr
