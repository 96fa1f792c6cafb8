"""``tau:Retail-v0`` from Python: the assistant seat as a single-agent env, the customer played
by a Python callable that gives its facts when asked, the assistant following each task's gold
actions."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STOP = "###STOP###"


def tasks():
    rows = (json.loads(line) for line in (ROOT / "plugins/tau/data/retail.jsonl").open())
    return [row["value"] for row in rows if row["table"] == "tasks"]


def customer(agent, observation):
    """A scripted customer: its facts when the assistant asks something, else the end."""
    if "Your goal:" in observation:
        return "Hi. " + observation.split("Your goal: ", 1)[1].split("\n", 1)[0]
    if "?" in observation:
        return "Sure, here is what I know."
    return STOP


def call(action):
    return (f"<tool_call><tool_name>{action['name']}</tool_name>"
            f"<arguments>{json.dumps(action['kwargs'])}</arguments></tool_call>")


def play(gem, index, task, actions):
    from geode.envs.multiagent import SingleAgentEnv

    env = SingleAgentEnv(gem.make("tau:Retail-v0"), "assistant", opponents={"user": customer})
    observation, _ = env.reset(seed=index)
    assert "Customer: Hi. " + task["instruction"] in observation
    _, reward, done, _, _ = env.step("Who am I talking to?")
    assert (reward, done) == (0.0, False)
    for action in actions:
        observation, reward, done, _, info = env.step(call(action))
        assert not done and "Error" not in observation, observation
    return env.step("All done. " + " ".join(task["outputs"]))


def test_every_task_followed_by_the_book_scores_one(gem):
    for index, task in enumerate(tasks()):
        _, reward, terminated, _, info = play(gem, index, task, task["actions"])
        assert terminated and reward == 1.0, (task["task_id"], info)
        assert info["reward_info"]["failed"] is None


def test_an_extra_write_fails_the_database_check(gem):
    all_tasks = tasks()
    task = all_tasks[0]
    extra = next(t for t in all_tasks[1:] if t["actions"][-1]["name"] == "cancel_pending_order")
    _, reward, terminated, _, info = play(gem, 0, task, task["actions"] + [extra["actions"][-1]])
    assert terminated and reward == 0.0
    assert info["reward_info"]["failed"] == "database"
    assert info["reward_info"]["database_hash"] != info["reward_info"]["gold_database_hash"]


def test_the_multi_agent_view_shows_whose_turn_it_is(gem):
    env = gem.make("tau:Retail-v0")
    assert env.possible_agents == ["assistant", "user"]
    observations, infos = env.reset(seed=3)
    assert infos["assistant"]["task_id"] == tasks()[3]["task_id"]
    assert {t["function"]["name"] for t in infos["assistant"]["tools"]} >= {"cancel_pending_order", "calculate"}
    assert env.active_agents() == ["user"]
    assert "Your goal:" in observations["user"]
    env.step({"user": "Hello"})
    assert env.active_agents() == ["assistant"]
    with pytest.raises(ValueError):
        env.step({"user": "Me again"})
