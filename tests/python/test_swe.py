"""Agentic coding envs from Python: ``geode.make("swe:...")`` gives a private workspace worked
through tool calls, and the hidden tests decide the reward."""


def call(tool, **arguments):
    import json

    return f"<tool_call><tool_name>{tool}</tool_name><arguments>{json.dumps(arguments)}</arguments></tool_call>"


def test_swe_ids_are_registered(gem):
    assert "swe:all" in gem.ENV_REGISTRY
    assert "swe:interval-merge" in gem.ENV_REGISTRY
    assert gem.ENV_REGISTRY["swe:all"].kwargs["max_turns"] == 50


def test_an_episode_fixes_the_bug_and_a_vector_keeps_workspaces_apart(gem):
    env = gem.make("swe:interval-merge", tool_timeout=10, grade_timeout=60)
    obs, info = env.reset(seed=0)
    assert "touch at an endpoint" in obs
    assert [t["function"]["name"] for t in info["tools"]][-1] == "submit"
    obs, reward, terminated, truncated, info = env.step(
        call("str_replace_editor", command="str_replace", path="spans/merge.py",
             old_str="current.start < merged[-1].end", new_str="current.start <= merged[-1].end"))
    assert "has been edited" in obs and reward == 0.0 and not terminated
    obs, reward, terminated, truncated, info = env.step(call("submit"))
    assert reward == 1.0 and terminated and info["resolved"] is True

    vec = gem.make_vec(["swe:interval-merge"] * 2, vec_kwargs=[{"tool_timeout": 10}] * 2)
    vec.reset(seed=0)
    observations, _, _, _, _ = vec.step([
        call("python", code="open('mine.txt', 'w').write('0')"),
        call("search", glob="mine.txt"),
    ])
    assert observations[1] == "No matches found."
