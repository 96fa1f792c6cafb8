"""GEM's module layout: a GEM script's `from gem.x import y` lines work after its `import gem`
became `import geode as gem`, and the modules they name (tools, utils, vector) behave as GEM's."""

import functools
import os
import subprocess
import sys
import textwrap

import pytest

from test_gem_script import gem_python

HARD = "game:GuessTheNumber-v0-hard"

# The import block of GEM's own training examples, with only the first line changed.
GEM_SCRIPT = textwrap.dedent("""
    import geode as gem
    from gem.core import Env, EnvWrapper
    from gem.envs.registration import register
    from gem.tools.base_tool import BaseTool
    from gem.tools.python_code_tool import PythonCodeTool
    from gem.tools.tool_env_wrapper import ToolEnvWrapper
    from gem.utils.constants import TERMINAL_STATE, LanguageGameReward
    from gem.utils.debug import run_and_print_episode
    from gem.utils.parsing import extract_last_boxed_answer
    from gem.utils.qa_em import em_check
    from gem.utils.sandbox import run_python
    from gem.vector.async_vector_env import AsyncVectorEnv
    from gem.vector.sync_vector_env import SyncVectorEnv
    from gem.vector.vector_env import AutoresetMode, VectorEnv
    from gem.wrappers.wrapper_factory import WRAPPER_FACTORY, get_wrapper_fns
    import gem.wrappers.observation_wrapper

    import sys
    import geode
    import geode.wrappers.wrapper_factory
    assert get_wrapper_fns is geode.wrappers.wrapper_factory.get_wrapper_fns
    assert gem.wrappers.observation_wrapper is sys.modules["geode.wrappers.observation_wrapper"]
    assert geode.wrappers.wrapper_factory.__spec__.name == "geode.wrappers.wrapper_factory"
    assert run_python is sys.modules["geode.utils.sandbox"].run_python and em_check("The cat!", ["cat"])
    assert run_python("print(6 * 7)", "none") == (True, "42\\n", "")
    vec = gem.make_vec(["%s"] * 4, wrappers=get_wrapper_fns("python_tool,concat"), seed=0)
    vec.reset()
    obs, rewards, terminated, truncated, infos = vec.step(["<python>print(6 * 7)</python>"] * 4)
    assert all("Code execution result: 42" in o for o in obs), obs
    print("ok", extract_last_boxed_answer("so \\\\boxed{\\\\frac{1}{2}}"), LanguageGameReward.format_error_reward)
""" % HARD)


def run_script(tmp_path, code, **env):
    # A bare `gem` directory in the working directory (an empty namespace package to Python)
    # must not count as GEM being installed.
    (tmp_path / "gem").mkdir(exist_ok=True)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120, env={**os.environ, **env})
    return out


def test_a_gem_scripts_imports_resolve_to_geode(tmp_path):
    out = run_script(tmp_path, GEM_SCRIPT)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "ok \\frac{1}{2} -0.1"


def test_the_alias_can_be_turned_off(tmp_path):
    out = run_script(tmp_path, "import geode as gem\nfrom gem.utils.parsing import remove_boxed",
                     GEODE_GEM_ALIAS="off")
    assert out.returncode != 0 and "ModuleNotFoundError" in out.stderr


BOXED_CASES = [
    "\\boxed{42}", "a \\boxed{1} b \\boxed{2}", "\\boxed{\\frac{1}{2}}", "\\boxed{a}}", "\\boxed{{x}",
    "\\boxed 5", "\\boxed}{", "\\fbox{3}", "no box", "", "\\boxed{}", "x \\boxed{1} \\boxed",
    "\\boxed{1} \\fbox{2}", "\\boxed{ 7 } and {}", "\\boxed{é}",
]
CODE_CASES = ["```python\nprint(1)\n```", "a\n```\nx = 1\n```\n```py\ny\n```", "```python print(1)```", "none"]
TAG_CASES = ["<answer> 4 </answer>", "<answer>1</answer><answer>\n2\n</answer>", "<answer>open", ""]


def test_parsing_follows_gems_rules(gem):
    from geode.utils import parsing

    assert parsing.extract_last_boxed_answer("a \\boxed{1} b \\boxed{\\frac{1}{2}}") == "\\frac{1}{2}"
    assert parsing.extract_last_boxed_answer("\\boxed{a}}") == "a"
    assert parsing.extract_last_boxed_answer("\\boxed{{x}") is None  # never closed
    assert parsing.extract_last_boxed_answer("\\fbox{3}") is None  # found, but not \boxed{...}
    assert parsing.extract_last_boxed_answer("x \\boxed{1} \\boxed") is None  # the last one is bare
    assert parsing.extract_code_from_model("a\n```\nx = 1\n```\n```py\ny\n```") == "y"
    assert parsing.extract_code_from_model("```python print(1)```") is None
    assert parsing.extract_last_tagged_answer("<answer>1</answer><answer>\n2\n</answer>") == "2"


def test_parsing_equals_gem_case_for_case(gem):
    python = gem_python()
    if python is None:
        pytest.skip("no GEM install to compare with (set GEM_PYTHON)")
    import json

    from geode.utils import parsing

    code = ("import json, sys, types; sys.modules.setdefault('requests', types.ModuleType('requests'));"
            "from gem.utils import parsing as p; c = json.loads(sys.argv[1]);"
            "print(json.dumps([[p.extract_last_boxed_answer(s) for s in c[0]],"
            "[p.extract_code_from_model(s) for s in c[1]], [p.extract_last_tagged_answer(s) for s in c[2]]]))")
    cases = [BOXED_CASES, CODE_CASES, TAG_CASES]
    out = subprocess.run([python, "-c", code, json.dumps(cases)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    theirs = json.loads(out.stdout)
    ours = [[parsing.extract_last_boxed_answer(s) for s in BOXED_CASES],
            [parsing.extract_code_from_model(s) for s in CODE_CASES],
            [parsing.extract_last_tagged_answer(s) for s in TAG_CASES]]
    assert ours == theirs


class EchoTool:
    """A tool written in Python: `<echo>text</echo>`; `<echo>fail</echo>` is a failed call."""

    tool_type = "echo"

    def __init__(self, name="echo"):
        self.name = name

    def instruction_string(self):
        return f"Call {self.name} with <{self.name}>text</{self.name}>."

    def execute_action(self, action):
        start, end = f"<{self.name}>", f"</{self.name}>"
        if start not in action or end not in action:
            return False, False, "", action
        body = action.split(start, 1)[1].split(end, 1)[0]
        return True, body == "fail", f"{self.name}: {body}", action


def test_python_tool_wrapper_rules_over_any_env(gem):
    from geode.tools import BaseTool, ToolEnvWrapper

    class Failing(EchoTool, BaseTool):
        pass

    inner = gem.wrappers.EpisodeTrackingWrapper(gem.make(HARD))  # a Python env
    env = ToolEnvWrapper(inner, tools=[Failing("echo"), EchoTool("echo")], tool_reward=0.1,
                         tool_success_reward=0.5, tool_execute_error_reward=-0.2, max_tool_uses=3)
    obs, info = env.reset(seed=2)
    assert obs.endswith("Available tools:\nCall echo with <echo>text</echo>.\nCall echo with <echo>text</echo>.")
    assert info["use_tool"] is False and info["prev_ep_tool_use_counter"] == 0
    obs, reward, terminated, truncated, info = env.step("<echo>hi</echo>")
    assert (obs, reward, terminated, truncated) == ("echo: hi", 0.6, False, False)
    assert info == {"parsed_action": "<echo>hi</echo>", "tool_type": "echo", "tool_use_counter": 1,
                    "tool_success_counter": 1, "use_tool": True}
    # Both tools take it and fail: the first failure is reported.
    obs, reward, *_ , info = env.step("<echo>fail</echo>")
    assert (obs, reward, info["tool_success_counter"]) == ("echo: fail", pytest.approx(-0.1), 1)
    # The third use is the last one allowed: the observation says so.
    obs, *_ = env.step("<echo>x</echo>")
    assert obs.endswith("\n\n" + gem._geode.MAX_TOOL_USE_MESSAGE)
    # No uses left: the env steps (its own step counter moves; a tool turn did not move it).
    obs, reward, terminated, truncated, info = env.step("<echo>y</echo> \\boxed{25}")
    assert info["step_counter"] == 1 and info["use_tool"] is False and info["tool_use_counter"] == 3
    _, info = env.reset()
    assert (info["prev_ep_tool_use_counter"], info["prev_ep_tool_success_counter"]) == (3, 2)


def test_python_and_native_tool_wrappers_agree(gem):
    from geode.tools import PythonCodeTool, ToolEnvWrapper

    actions = ["<python>print(6 * 7)</python>", "```python\nimport os\nprint(os.listdir('/'))\n```",
               "<python>1/0</python>", "\\boxed{25}", "<python>print('a')</python>", "\\boxed{12}"]
    python = ToolEnvWrapper(gem.make(HARD), tools=[PythonCodeTool(timeout=5)], tool_reward=0.05,
                            tool_success_reward=0.25, max_tool_uses=3)
    native = gem.wrappers.WRAPPER_FACTORY["python_tool"].bind(max_tool_uses=3)(gem.make(HARD))
    assert not isinstance(native, ToolEnvWrapper)
    assert python.reset(seed=4) == native.reset(seed=4)
    for action in actions:
        assert python.step(action) == native.step(action)


def test_python_tool_names_and_gem_partials_run_natively_in_make_vec(gem):
    from geode.tools import PythonCodeTool, ToolEnvWrapper

    assert {"python_tool", "python_tool_no_int_reward", "python_tool_no_int_reward_last_line_error"} <= set(
        gem.wrappers.WRAPPER_FACTORY)
    partial = functools.partial(ToolEnvWrapper, tools=[PythonCodeTool(timeout=5)], tool_reward=0.05,
                                tool_success_reward=0.25, max_tool_uses=5)
    by_name = gem.make_vec([HARD] * 2, wrappers=gem.wrappers.get_wrapper_fns("python_tool"), seed=0)
    by_partial = gem.make_vec([HARD] * 2, wrappers=[partial], seed=0)
    assert type(by_name).__name__ == type(by_partial).__name__ == "NativeVectorEnv"
    assert by_name.reset() == by_partial.reset()
    actions = ["<python>print(sum(range(10)))</python>", "\\boxed{30}"]
    for a, b in zip(by_name.step(actions), by_partial.step(actions)):
        assert str(a) == str(b)
    obs, rewards, _, _, infos = by_name.step(actions)
    assert obs[0].startswith("Code execution result: 45") and rewards[0] == pytest.approx(0.3)
    assert infos[0]["tool_type"] == "python_code" and infos[1]["use_tool"] is False


def test_last_line_error_keeps_only_the_errors_last_line(gem):
    env = gem.wrappers.WRAPPER_FACTORY["python_tool_no_int_reward_last_line_error"](gem.make(HARD))
    env.reset(seed=0)
    obs, reward, *_ = env.step("<python>1/0</python>")
    assert obs.strip() == "Code execution result: ZeroDivisionError: division by zero" and reward == 0.0


def test_run_and_print_episode(gem, capsys):
    from geode.utils.debug import run_and_print_episode

    env = gem.make(HARD, seed=1)
    def never_right(obs):
        """A guess next to the hidden number, so the episode never ends early by chance."""
        import json

        target = json.loads(bytes(env.get_state()))["env"]["target"]
        return "\\boxed{%d}" % (target % 50 + 1)

    run_and_print_episode(env, never_right, max_steps=3)
    printed = capsys.readouterr().out
    assert printed.count("Step ") == 3 and "----TIME:" in printed

    from geode.utils.debug import run_and_print_episode_with_selective_step

    import json

    targets = []
    for seed in range(3):  # make_vec resets env i with seed + i
        lone = gem.make(HARD)
        lone.reset(seed=seed)
        targets.append(json.loads(bytes(lone.get_state()))["env"]["target"])
    wrong = ["\\boxed{%d}" % (target % 50 + 1) for target in targets]
    vec = gem.make_vec([HARD] * 3, seed=0)
    run_and_print_episode_with_selective_step(vec, lambda obs: wrong, max_steps=2)
    printed = capsys.readouterr().out
    assert printed.count("Step ") == 2 and "next_observation" in printed
