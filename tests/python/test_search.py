"""``gem.tools.search_tool.SearchTool`` and the ``search_tool`` wrappers: a scripted agent answers
the shipped QA samples through ``<search>`` over the shipped corpus, and the local index and
``geode-search-server`` (a real process speaking GEM's retrieval protocol) give the same
episodes."""

import json
import subprocess

import pytest

from conftest import ROOT

SAMPLES = {"eval:HotpotQA": "search_eval_hotpotqa", "eval:Musique": "search_eval_musique",
           "eval:TriviaQA": "search_eval_tq"}


def rows(name):
    with open(ROOT / f"plugins/qa/data/{name}.jsonl") as f:
        return [json.loads(line) for line in f]


def scripted_episode(env, seed, sample):
    """Searches the question, answers with the first accepted answer the passages hold."""
    obs, _ = env.reset(seed=seed)
    row = next(r for r in sample if f"Question: {r['question']}\n" in obs)
    found, reward, terminated, _, info = env.step(f"<think>look it up</think><search> {row['question']} </search>")
    assert (reward, terminated, info["tool_type"], info["tool_success_counter"]) == (0, False, "search", 1)
    answer = next((a for a in row["answer"] if a.lower() in found.lower()), row["answer"][0])
    last, reward, terminated, _, _ = env.step(f"<answer>{answer}</answer>")
    assert terminated
    return [obs, found, last], reward


@pytest.fixture(scope="module")
def server():
    """``geode-search-server`` over the shipped corpus on a free port (built by ``cargo test``)."""
    binary = ROOT / "target/release/geode-search-server"
    if not binary.exists():
        build = subprocess.run(["cargo", "build", "--release", "-p", "geode-search"], cwd=ROOT,
                               capture_output=True, text=True)
        assert build.returncode == 0, build.stderr[-800:]
    process = subprocess.Popen([str(binary), "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    line = process.stdout.readline()
    assert line.startswith("listening on "), (line, process.stderr.read() if process.poll() is not None else "")
    yield line.split("listening on ", 1)[1].strip()
    process.kill()
    process.wait()


def test_gems_module_path_and_instructions(gem):
    from gem.tools.search_tool import SearchTool

    tool = SearchTool(topk=2)
    assert tool.tool_type == "search"
    assert tool.instruction_string().startswith("You have access to a search engine to help answer questions.")
    valid, has_error, obs, parsed = tool.execute_action("I need the capital. <search>capital of Bhutan</search> then")
    assert (valid, has_error, parsed) == (True, False, "I need the capital. <search>capital of Bhutan</search>")
    assert obs.startswith("\n\n<information>Doc 1(Title: Bhutan) ") and obs.count("\nDoc ") == 1
    assert "Thimphu" in obs
    assert tool.execute_action("<answer>Thimphu</answer>") == (False, True, "", "")


@pytest.mark.parametrize("env_id", sorted(SAMPLES))
def test_a_scripted_agent_answers_through_search(gem, env_id):
    from gem.tools.search_tool import SearchTool
    from gem.tools.tool_env_wrapper import ToolEnvWrapper

    sample = rows(SAMPLES[env_id])
    env = ToolEnvWrapper(gem.make(env_id), tools=[SearchTool()], max_tool_uses=5)
    for seed in range(len(sample)):
        _, reward = scripted_episode(env, seed, sample)
        assert reward == 1.0, (env_id, seed)


def test_search_tool_wrappers_by_name_run_natively(gem):
    assert {"search_tool", "search_tool_no_int_reward"} <= set(gem.wrappers.WRAPPER_FACTORY)
    vec = gem.make_vec(["eval:PopQA"] * 2, wrappers=gem.wrappers.get_wrapper_fns("search_tool"), seed=0)
    assert type(vec).__name__ == "NativeVectorEnv"
    obs, _ = vec.reset()
    assert all(o.endswith("<answer> your answer here </answer>") for o in obs)
    obs, rewards, _, _, infos = vec.step(["<search>capital of Bhutan</search>", "no tool here"])
    assert obs[0].startswith("\n\n<information>Doc 1(Title: Bhutan)") and rewards[0] == pytest.approx(0.3)
    assert infos[0]["tool_type"] == "search" and infos[1]["use_tool"] is False
    env = gem.wrappers.WRAPPER_FACTORY["search_tool_no_int_reward"](gem.make("eval:PopQA"))
    env.reset(seed=0)
    assert env.step("<search>Hallstatt</search>")[1] == 0.0


def test_local_and_remote_backends_give_the_same_episodes(gem, server):
    from gem.tools.search_tool import SearchTool
    from gem.tools.tool_env_wrapper import ToolEnvWrapper

    sample = rows("search_eval_musique")
    local = ToolEnvWrapper(gem.make("eval:Musique"), tools=[SearchTool()])
    remote = ToolEnvWrapper(gem.make("eval:Musique"), tools=[SearchTool(search_url=server, timeout=10)])
    for seed in range(len(sample)):
        assert scripted_episode(local, seed, sample) == scripted_episode(remote, seed, sample)


def test_search_url_from_the_environment(gem, server, monkeypatch):
    from gem.tools.search_tool import SearchTool

    monkeypatch.setenv("SEARCH_URL", server.replace("/retrieve", "/nowhere"))
    valid, has_error, obs, _ = SearchTool().execute_action("<search>x</search>")
    assert valid and has_error and "[SearchTool Error: 404 Not Found" in obs


def test_python_and_search_tools_in_one_wrapper(gem):
    from gem.tools.python_code_tool import PythonCodeTool
    from gem.tools.search_tool import SearchTool
    from gem.tools.tool_env_wrapper import ToolEnvWrapper

    env = ToolEnvWrapper(gem.make("eval:PopQA"), tools=[PythonCodeTool(), SearchTool()], tool_reward=0.1,
                         tool_success_reward=0.2)
    obs, _ = env.reset(seed=0)
    assert "\nAvailable tools:\nSolve the above problem step by step." in obs
    obs, reward, _, _, info = env.step("<search>Hallstatt</search>")
    assert info["tool_type"] == "search" and reward == pytest.approx(0.3) and "Austria" in obs
    obs, reward, _, _, info = env.step("<python>print(2 + 2)</python>")
    assert info["tool_type"] == "python_code" and obs == "Code execution result: 4\n\n"
    assert (info["tool_use_counter"], info["tool_success_counter"]) == (2, 2)
