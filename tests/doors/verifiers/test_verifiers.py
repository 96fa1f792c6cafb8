"""verifiers 0.4's door: evals run by verifiers' own runner (``verifiers.v1``'s ``run_eval``,
what ``vf-eval`` calls), the model server playing the model through verifiers' tool-less chat
harness in a local subprocess. Two ways in: verifiers' ``openenv`` taskset pointed at
``geode serve``, and geode's own ``geode`` taskset stepping envs in this process. Every episode
is replayed on geode's Python API with the same seed and the model's actions: the observations
the model saw and the rewards must match."""

import asyncio
import json
import os
import sys
from pathlib import Path

import pydantic
import pytest
from verifiers.v1.cli.eval.runner import run_eval
from verifiers.v1.configs.cli.eval import EvalConfig

import geode
import geode.verifiers as door
from servers import ROOT, geode_serve, model_server

GAME = "game:GuessTheNumber-v0-easy"
MATH = "math:GSM8K"
ANSWERS = str(ROOT / "host/builtins/src/math/data/gsm8k.jsonl")
# The chat harness is a script verifiers prepares with uv, which this venv provides.
os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"


def evaluate(env: dict, base_url: str, out: Path, timeout: float = 90) -> list:
    """One eval with verifiers' runner; its episodes (each with one trace)."""
    config = EvalConfig.model_validate({
        "env": env, "model": "geode-test", "push": False, "rich": None, "output_dir": str(out),
        "client": {"base_url": base_url, "api_key_var": "GEODE_TEST_KEY"},
    })
    return asyncio.run(asyncio.wait_for(run_eval(config), timeout))


def openenv_block(url: str, resets: list) -> dict:
    """verifiers' openenv taskset on a running ``geode serve``, played by the chat harness."""
    return {"taskset": {"id": "openenv", "base_url": url, "resets": resets},
            "player": {"harness": {"id": "null"}, "runtime": {"type": "subprocess"}}}


def turns(trace) -> tuple:
    """The user turns and the model's replies (as the envs take them: stripped) of a trace."""
    users = [n.message.content for n in trace.nodes if n.message.role == "user"]
    replies = [n.message.content.strip() for n in trace.nodes if n.message.role == "assistant"]
    return users, replies


def replay(env_id: str, start: dict, actions: list, wrappers=()) -> tuple:
    """The episode on geode's own API: (first observation, step observations, rewards)."""
    env = geode.make(env_id, wrappers=list(wrappers))
    first, _ = env.reset(**start)
    steps = [env.step(action) for action in actions]
    env.close()
    return first, [s[0] for s in steps], [float(s[1]) for s in steps]


def check_in_process(episode, env_id: str, wrappers=()) -> list:
    """Asserts an in-process episode equals its replay; returns its per-step rewards."""
    assert episode.ok, episode.errors
    trace, data = episode.traces[0], episode.task.data
    users, replies = turns(trace)
    start = {"idx": data.row} if data.row is not None else {"seed": data.seed}
    first, observations, rewards = replay(env_id, start, replies, wrappers)
    record = trace.info["geode"]
    assert users == [first, *observations[:-1]]
    assert record["final_observation"] == observations[-1]
    assert record["rewards"] == rewards
    assert trace.rewards["geode_reward"].score == sum(rewards)
    return rewards


def check_openenv(episode, env_id: str, wrappers=()) -> list:
    """Asserts an episode through ``geode serve`` equals its replay; returns its per-step
    rewards (the openenv taskset records only their sum)."""
    assert episode.ok, episode.errors
    trace = episode.traces[0]
    users, replies = turns(trace)
    first, observations, rewards = replay(env_id, episode.task.data.reset, replies, wrappers)
    texts = [json.loads(user)["observation"]["text"] for user in users]
    assert texts == [first, *observations[:-1]]
    assert trace.rewards["openenv_reward"].score == sum(rewards)
    return rewards


def test_openenv_taskset_plays_a_game_on_geode_serve(tmp_path):
    resets = [{"seed": seed} for seed in range(3)]
    with geode_serve(GAME) as url, model_server("bisect") as base_url:
        episodes = evaluate(openenv_block(url, resets), base_url, tmp_path)
    assert [sum(check_openenv(e, GAME)) for e in episodes] == [1.0] * 3


def test_openenv_taskset_scores_math_on_geode_serve(tmp_path):
    resets = [{"seed": seed} for seed in range(3)]
    with geode_serve(MATH) as url, model_server("math", "--answers", ANSWERS, "--p-correct", "1") as base_url:
        episodes = evaluate(openenv_block(url, resets), base_url, tmp_path)
    assert [check_openenv(e, MATH) for e in episodes] == [[1.0]] * 3


def test_openenv_taskset_runs_a_tool_env_on_geode_serve(tmp_path):
    """Needs `geode serve --wrappers` (the python tool runs inside the served env)."""
    resets = [{"seed": seed} for seed in range(2)]
    tool_math = ("tool-math", "--answers", ANSWERS, "--p-correct", "1")
    with geode_serve(MATH, "--wrappers", "python_tool") as url, model_server(*tool_math) as base_url:
        episodes = evaluate(openenv_block(url, resets), base_url, tmp_path)
    for episode in episodes:
        rewards = check_openenv(episode, MATH, ["python_tool"])
        assert len(rewards) == 2 and rewards[-1] == 1.0
        assert "42" in turns(episode.traces[0])[0][1]  # the tool's result came back as a turn


def test_a_reply_geode_serve_refuses_fails_the_episode_with_its_reason(tmp_path):
    with geode_serve(GAME) as url, model_server("constant", "--reply", '{"move": 3}') as base_url:
        episodes = evaluate(openenv_block(url, [{"seed": 0}]), base_url, tmp_path, timeout=60)
    assert not episodes[0].ok
    assert "VALIDATION_ERROR" in str(episodes[0].errors) + str(episodes[0].traces[0].errors)


def test_geode_taskset_plays_a_game_in_process(tmp_path):
    with model_server("bisect") as base_url:
        episodes = evaluate(door.env_config(GAME, seeds=[0, 1, 2]), base_url, tmp_path)
    assert [sum(check_in_process(e, GAME)) for e in episodes] == [1.0] * 3


def test_geode_taskset_walks_a_math_dataset_with_the_python_tool(tmp_path):
    env = door.env_config(MATH, rows=[0, 1, 2], wrappers=["python_tool"], max_turns=4)
    with model_server("tool-math", "--answers", ANSWERS, "--p-correct", "1") as base_url:
        episodes = evaluate(env, base_url, tmp_path)
    for episode in episodes:
        rewards = check_in_process(episode, MATH, ["python_tool"])
        assert len(rewards) == 2 and rewards[-1] == 1.0
        assert "42" in turns(episode.traces[0])[0][1]  # the tool's result came back as a turn


def test_geode_taskset_scores_math_rows_in_process(tmp_path):
    with model_server("math", "--answers", ANSWERS, "--p-correct", "1") as base_url:
        episodes = evaluate(door.env_config(MATH, num_tasks=2), base_url, tmp_path)
    assert [check_in_process(e, MATH) for e in episodes] == [[1.0], [1.0]]


def test_the_geode_taskset_resolves_by_id_as_verifiers_loads_tasksets():
    from verifiers.v1.utils.loaders import environment_class, taskset_class

    assert taskset_class(door.TASKSET_ID) is door.GeodeTaskset
    assert environment_class(door.TASKSET_ID) is door.GeodeEnv


@pytest.mark.parametrize("taskset, error, words", [
    ({}, pydantic.ValidationError, "env_id"),
    ({"env_id": GAME, "seeds": [1], "rows": [1]}, pydantic.ValidationError, "not both"),
    ({"env_id": GAME, "seeds": ["x"]}, pydantic.ValidationError, "seeds"),
    ({"env_id": "game:NoSuchGame-v0", "seeds": [0]}, ValueError, "NoSuchGame"),
    ({"env_id": GAME, "seeds": [0], "wrappers": ["no_such_wrapper"]}, ValueError, "no_such_wrapper"),
])
def test_a_malformed_taskset_config_fails_clearly(taskset, error, words):
    from verifiers.v1.utils.loaders import load_taskset

    with pytest.raises(error, match=words):
        config = door.GeodeConfig.model_validate({"id": door.TASKSET_ID, **taskset})
        list(load_taskset(config))
