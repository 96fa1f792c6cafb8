"""The Python guest SDK's multi-agent roster, natively (no component): the same turn, removal,
reward and mailbox rules as the Rust SDK's `geode_sdk::multiagent` (its unit tests' cases)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "sdk" / "python"))

from geode_sdk import (  # noqa: E402
    PARALLEL,
    SEQUENTIAL,
    AgentSelector,
    Agents,
    InvalidState,
    MultiAgentEnv,
    Spec,
)
from geode_sdk.testing import make_multiagent  # noqa: E402


def test_sequential_turns_wrap_around():
    s = AgentSelector(["a", "b", "c"], SEQUENTIAL)
    order = []
    for _ in range(4):
        order.append(s.active()[0])
        s.next()
    assert order == ["a", "b", "c", "a"]


def test_parallel_mode_selects_everyone():
    s = AgentSelector(["a", "b"], PARALLEL)
    s.next()
    assert s.active() == ["a", "b"]
    s.remove_agent("a")
    assert s.active() == ["b"]


def test_removing_the_acting_agent_passes_the_turn_on():
    s = AgentSelector(["a", "b", "c"], SEQUENTIAL)
    s.next()
    s.remove_agent("b")
    s.next()
    assert s.active() == ["c"]
    first = AgentSelector(["a", "b", "c"], SEQUENTIAL)
    first.remove_agent("a")
    first.next()
    assert first.active() == ["b"], "the first agent leaving skips nobody"
    for agent in ["zzz", "a", "c"]:
        s.remove_agent(agent)
    assert s.active() == []


def test_terminated_agents_leave_after_the_step_and_keep_their_totals():
    agents = Agents(["a", "b"], SEQUENTIAL)
    agents._restart()
    agents._clear_outcomes()
    agents.terminate("a")
    agents.reward("a", 1.0)
    assert agents._take_outcome("a").reward == 1.0
    agents._finish_step()
    assert agents.agents == ["b"] and agents.active == ["b"]
    assert agents.cumulative_reward("a") == 1.0


def test_messages_need_live_agents():
    agents = Agents(["a", "b"], SEQUENTIAL)
    agents._restart()
    agents.send_message("a", "b", "hi")
    agents.broadcast_message("b", "yo")
    with pytest.raises(InvalidState):
        agents.send_message("a", "ghost", "x")
    assert [m.text for m in agents.messages_to("a")] == ["yo"]


class Echo(MultiAgentEnv):
    """Three agents acting at once; `leave` terminates the actor, `quit` truncates it."""

    specs = [Spec("sdk-test:Echo-v0", "parallel echo", {})]
    mode = PARALLEL

    def possible_agents(self):
        return ["a", "b", "c"]

    def step(self, actions, agents, rng):
        for agent, action in actions:
            agents.reward(agent, 1.0)
            if action == "leave":
                agents.terminate(agent)
            elif action == "quit":
                agents.truncate(agent)

    def observe(self, agent, agents):
        return f"{agent} sees {len(agents.agents)}"


def test_parallel_agents_act_together_and_leave_one_by_one():
    env = make_multiagent("sdk-test:Echo-v0")
    with pytest.raises(InvalidState):
        env.step([("a", "x")])  # before reset
    assert len(env.reset(3)) == 3
    assert env.roster() == (["a", "b", "c"], ["a", "b", "c"])
    with pytest.raises(InvalidState):
        env.step([("a", "x"), ("b", "y")])  # c is missing
    out = env.step([("a", "hi"), ("b", "leave"), ("c", "quit")])
    assert [(o.agent, o.terminated, o.truncated) for o in out] == [
        ("a", False, False),
        ("b", True, False),
        ("c", False, True),
    ]
    assert out[0].observation == "a sees 1"
    assert env.roster() == (["a"], ["a"])
    snapshot = env.get_state()
    env.agents.add_agent("d")
    assert env.roster() == (["a", "d"], ["a", "d"])
    env.set_state(snapshot)
    assert env.roster() == (["a"], ["a"])
    env.step([("a", "again")])
    assert env.agents.cumulative_reward("a") == 2.0 and env.agents.cumulative_reward("b") == 1.0


def test_the_javascript_sdk_keeps_the_same_rules():
    """The JavaScript SDK's twin of these tests (`sdk/js/test/multiagent.test.js`), in node."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    tests = Path(__file__).resolve().parents[2] / "sdk" / "js" / "test"
    run = subprocess.run([node, "--test", str(tests)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
