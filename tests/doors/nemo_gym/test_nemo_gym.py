"""NeMo Gym drives geode envs with its own server code: geode.nemo_gym's resources server answers
/reset and /step exactly as geode's direct API does for the same seeds and actions, and NeMo Gym's
gymnasium agent plays a game through it against the test model server, scoring what geode scores."""

import pytest
import requests
from nemo_gym.openai_utils import NeMoGymResponse

import geode as gem
from gym_servers import nemo_gym
from servers import model_server

GUESS = "game:GuessTheNumber-v0-easy"
#: The resources servers under test, by name: a game, a math id, and a game with tool:python.
ENVS = {"game": (GUESS, {}), "math": ("math:GSM8K", {}), "tool": (GUESS, {"wrappers": ["python_tool"]})}
#: (server, seed, the model's turns).
EPISODES = [
    ("game", 3, ["\\boxed{5}", "I think \\boxed{2}", "\\boxed{8}", "\\boxed{1}", "\\boxed{9}"]),
    ("math", 5, ["The book takes \\boxed{8} days."]),
    ("math", 6, ["\\boxed{42}"]),
    ("tool", 3, ["<python>print(2 + 3)</python>", "\\boxed{5}", "\\boxed{2}", "```python\nprint(1/0)\n```",
                 "\\boxed{3}", "\\boxed{4}"]),
]


@pytest.fixture(scope="module")
def urls():
    """NeMo Gym's servers, started once: a resources server for each of ENVS, the vLLM-style model
    server on the test model server (bisect policy), and the gymnasium agent on the game server."""
    servers = {name: ("geode", {"domain": "games", "env_id": env_id, "env_kwargs": kwargs})
               for name, (env_id, kwargs) in ENVS.items()}
    with model_server("bisect") as model_url:
        servers["model"] = ("model", {"base_url": model_url, "api_key": "none", "model": "geode-test",
                                      "return_token_id_information": False, "uses_reasoning_parser": False})
        servers["agent"] = ("agent", {"resources_server": {"type": "resources_servers", "name": "game"},
                                      "model_server": {"type": "responses_api_models", "name": "model"},
                                      "max_steps": 10})
        with nemo_gym(servers) as started:
            yield started


def model_turn(text: str) -> dict:
    """One model turn as NeMo Gym's Responses API carries it."""
    return NeMoGymResponse(
        id="resp_test", created_at=0, model="geode-test", object="response", parallel_tool_calls=False,
        tool_choice="auto", tools=[], output=[{"type": "message", "id": "msg_test", "role": "assistant",
                                               "status": "completed",
                                               "content": [{"type": "output_text", "text": text, "annotations": []}]}],
    ).model_dump()


def direct(env_id, kwargs, seed, actions):
    """geode's own transcript: the reset, then each step until the episode ends."""
    env = gem.make(env_id, **kwargs)
    transcript = [env.reset(seed=seed)]
    for action in actions:
        step = env.step(action)
        transcript.append(step)
        if step[2] or step[3]:
            break
    env.close()
    return transcript


def through_nemo_gym(base, seed, actions):
    """The same episode through the resources server's /reset and /step, one NeMo Gym session."""
    session = requests.Session()
    row = {"responses_create_params": {"input": "play"}, "seed": seed}
    reset = session.post(f"{base}/reset", json=row, timeout=60)
    reset.raise_for_status()
    transcript = [(reset.json()["observation"], reset.json()["info"])]
    for action in actions:
        step = session.post(f"{base}/step", json={**row, "response": model_turn(action)}, timeout=60)
        step.raise_for_status()
        body = step.json()
        transcript.append((body["observation"], body["reward"], body["terminated"], body["truncated"], body["info"]))
        if body["terminated"] or body["truncated"]:
            break
    return transcript


@pytest.mark.parametrize("server, seed, actions", EPISODES)
def test_resources_server_steps_as_geode_does(urls, server, seed, actions):
    expected = direct(*ENVS[server], seed, actions)
    assert through_nemo_gym(urls[server], seed, actions) == [tuple(step) for step in expected]


def test_the_episodes_score_something():
    rewards = [step[1] for server, seed, actions in EPISODES for step in direct(*ENVS[server], seed, actions)[1:]]
    assert any(reward > 0 for reward in rewards) and any(reward == 0 for reward in rewards)


def test_gymnasium_agent_plays_a_game_through_geode(urls):
    row = {"responses_create_params": {"input": [{"role": "user", "content": "Guess the number."}]}, "seed": 11}
    run = requests.post(f"{urls['agent']}/run", json=row, timeout=120)
    run.raise_for_status()
    result = run.json()
    turns = [item["content"][0]["text"] for item in result["response"]["output"]
             if item.get("type") == "message" and item.get("role") == "assistant"]
    replay = direct(GUESS, {}, 11, turns)
    assert len(replay) == len(turns) + 1 and replay[-1][2] and result["terminated"]
    assert result["reward"] == sum(step[1] for step in replay[1:]) == 1.0


def test_interleaved_sessions_keep_their_own_envs(urls):
    sessions = {seed: requests.Session() for seed in (3, 5)}  # targets below and above 5
    rows = {seed: {"responses_create_params": {"input": "play"}, "seed": seed} for seed in sessions}
    for seed, session in sessions.items():
        session.post(f"{urls['game']}/reset", json=rows[seed], timeout=60).raise_for_status()
    for action in ["\\boxed{5}", "\\boxed{7}"]:
        for seed, session in sessions.items():
            step = session.post(f"{urls['game']}/step", json={**rows[seed], "response": model_turn(action)}, timeout=60)
            step.raise_for_status()
            expected = direct(GUESS, {}, seed, ["\\boxed{5}", "\\boxed{7}"])[1 if action.endswith("{5}") else 2]
            assert step.json()["observation"] == expected[0] and step.json()["reward"] == expected[1]
