"""SkyRL-gym 0.4's door: geode ids made by ``skyrl_gym.make`` and played the way SkyRL's
generator plays a text env (``make(env_class, env_config=..., extras=...)`` with the trainer's
``max_turns`` in extras, ``init(prompt)``, then model reply / ``step`` until ``done``, then
``get_metrics`` and ``close``), the model server writing the replies. Every episode is replayed
on geode's own Python API with the same seed and actions: observations and rewards must match."""

import json
import urllib.request
from pathlib import Path

import pytest
import skyrl_gym
from omegaconf import DictConfig
from skyrl_gym.metrics import aggregate_for_environment

import geode
import geode.skyrl as door
from servers import ROOT, model_server

GAME = "game:GuessTheNumber-v0-easy"
MATH = "math:GSM8K"
ANSWERS = str(ROOT / "host/builtins/src/math/data/gsm8k.jsonl")


def chat(base_url: str, messages: list) -> str:
    """One reply from the OpenAI-compatible model server."""
    body = json.dumps({"model": "geode-test", "messages": messages}).encode()
    request = urllib.request.Request(f"{base_url}/chat/completions", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["choices"][0]["message"]["content"]


def rollout(base_url: str, env_class: str, prompt: list, extras: dict, max_turns: int = 10) -> dict:
    """One episode as SkyRL's generator runs it; returns its turns and metrics."""
    extras = {**extras, "max_turns": max_turns}
    env = skyrl_gym.make(env_class, env_config=DictConfig({}), extras=extras)
    history, _ = env.init([dict(m) for m in prompt])
    first = history[-1]["content"]
    actions, observations, rewards, done = [], [], [], False
    while not done:
        action = chat(base_url, history)
        out = env.step(action)
        done = out["done"]
        actions.append(action)
        rewards.append(out["reward"])
        observations.append(out["metadata"]["observation"] if done else out["observations"][0]["content"])
        history += [{"role": "assistant", "content": action}, *out["observations"]]
    metrics = env.get_metrics()
    env.close()
    return {"first": first, "actions": actions, "observations": observations, "rewards": rewards,
            "metrics": metrics}


def replay(env_id: str, start: dict, actions: list, wrappers=()) -> dict:
    """The same episode on geode's own API."""
    env = geode.make(env_id, wrappers=list(wrappers))
    first, _ = env.reset(**start)
    steps = [env.step(action) for action in actions]
    env.close()
    return {"first": first, "observations": [s[0] for s in steps], "rewards": [float(s[1]) for s in steps]}


def assert_same(episode: dict, direct: dict) -> None:
    assert episode["first"] == direct["first"]
    assert episode["observations"] == direct["observations"]
    assert episode["rewards"] == direct["rewards"]


def test_every_geode_id_is_an_env_class():
    for env_id in geode.list_envs():
        assert env_id in skyrl_gym.registry
    assert door.ENV_CLASS in skyrl_gym.registry
    assert door.register() == []  # idempotent


def test_a_game_played_by_the_generator_loop_matches_geode():
    with model_server("bisect") as base_url:
        episodes = []
        for seed in range(4):
            extras = {"extra_info": {"env_id": GAME, "seed": seed}}
            episode = rollout(base_url, door.ENV_CLASS, [], extras)
            assert_same(episode, replay(GAME, {"seed": seed}, episode["actions"]))
            episodes.append(episode)
    # Bisection finds the number in 1..10 within the game's 4 turns.
    assert [sum(e["rewards"]) for e in episodes] == [1.0] * 4
    aggregated = aggregate_for_environment(door.ENV_CLASS, [e["metrics"] for e in episodes])
    assert aggregated["return"] == 1.0 and aggregated["terminated"] == 1.0


def test_math_rows_through_the_per_id_env_class_match_geode():
    rows = door.rows(MATH, idxs=range(6), system_prompt="Answer in \\boxed{}.")
    with model_server("math", "--answers", ANSWERS, "--p-correct", "1") as base_url:
        for row in rows:
            extras = {k: v for k, v in row.items() if k not in ("prompt", "env_class")}
            episode = rollout(base_url, MATH, row["prompt"], extras)
            assert episode["rewards"] == [1.0]
            assert_same(episode, replay(MATH, {"idx": row["extra_info"]["idx"]}, episode["actions"]))


def test_a_tool_env_runs_the_python_tool_then_answers():
    rows = door.rows(MATH, idxs=range(3), wrappers=["python_tool"])
    with model_server("tool-math", "--answers", ANSWERS, "--p-correct", "1") as base_url:
        for row in rows:
            extras = {k: v for k, v in row.items() if k not in ("prompt", "env_class")}
            episode = rollout(base_url, door.ENV_CLASS, row["prompt"], extras)
            assert len(episode["actions"]) == 2 and "42" in episode["observations"][0]
            assert episode["rewards"][-1] == 1.0
            direct = replay(MATH, {"idx": row["extra_info"]["idx"]}, episode["actions"], ["python_tool"])
            assert_same(episode, direct)


def test_options_come_from_keywords_or_the_env_config():
    by_keyword = skyrl_gym.make(door.ENV_CLASS, env_id=GAME, seed=5)
    assert by_keyword.init([])[0][-1]["content"] == replay(GAME, {"seed": 5}, [])["first"]
    config = DictConfig({"env_id": MATH, "wrappers": ["python_tool"]})
    by_config = skyrl_gym.make(door.ENV_CLASS, env_config=config, extras={"extra_info": {"idx": 2}})
    first = replay(MATH, {"idx": 2}, [], ["python_tool"])["first"]
    assert by_config.init([])[0] == [{"role": "user", "content": first}]


def test_the_trainers_max_turns_ends_an_episode_as_truncated():
    env = skyrl_gym.make(GAME, env_config={}, extras={"extra_info": {"seed": 3}, "max_turns": 1})
    env.init([{"role": "system", "content": "Play."}])
    out = env.step("\\boxed{1}")
    assert out["done"] and out["metadata"]["truncated"] and out["observations"] == []


@pytest.mark.parametrize("make_kwargs, error, words", [
    ({"extras": {}}, ValueError, "needs an env id"),
    ({"extras": {"extra_info": {"env_id": "game:NoSuchGame-v0"}}}, ValueError, "NoSuchGame"),
    ({"extras": {"extra_info": {"env_id": GAME, "seed": "one"}}}, TypeError, "seed"),
    ({"extras": {"extra_info": {"env_id": 7}}}, TypeError, "env id"),
    ({"extras": {"extra_info": {"env_id": GAME, "wrappers": ["no_such_wrapper"]}}}, ValueError, "no_such_wrapper"),
    ({"extras": {"max_turns": 0, "extra_info": {"env_id": GAME}}}, ValueError, "max_turns"),
])
def test_malformed_rows_fail_clearly(make_kwargs, error, words):
    with pytest.raises(error, match=words):
        env = skyrl_gym.make(door.ENV_CLASS, env_config={}, **make_kwargs)
        env.init([])


def test_malformed_steps_fail_clearly():
    env = skyrl_gym.make(GAME, env_config={}, extras={"extra_info": {"seed": 0}})
    with pytest.raises(RuntimeError, match="init"):
        env.step("\\boxed{5}")
    env.init([])
    with pytest.raises(TypeError, match="str"):
        env.step({"message": "\\boxed{5}"})
    for guess in range(1, 11):
        out = env.step(f"\\boxed{{{guess}}}")
        if out["done"]:
            break
    with pytest.raises(RuntimeError, match="over"):
        env.step("\\boxed{5}")
