"""``geode.openenv``: geode envs as OpenEnv ``Environment`` classes, hosted on OpenEnv's own
Python server (its ``create_app``, served by uvicorn on loopback) and played by OpenEnv's own
``GenericEnvClient``: episodes equal geode's direct API for the same seeds and actions on a game,
a math dataset env and the same env with the python tool; bad options fail when the class is
made; a malformed action gets OpenEnv's error and the server goes on. Runs in the openenv 0.10
venv, where ``host/serve/openenv-venv.sh 0.10`` also installs the geode wheel; skipped elsewhere."""

import socket
import threading
import time

import pytest

geode = pytest.importorskip("geode", reason="the geode wheel is not in this venv")
pytest.importorskip("openenv.core.generic_client", reason="openenv 0.10 is not in this venv")

import httpx  # noqa: E402
import uvicorn  # noqa: E402
from openenv.core.generic_client import GenericEnvClient  # noqa: E402

from geode.openenv import TextAction, create_app, environment_class  # noqa: E402

GUESS = {"min_number": 1, "max_number": 20, "max_turns": 10}
EPISODES = {
    "game": dict(id="game:GuessTheNumber-v0-hard", config=GUESS, wrappers=[], reset={"seed": 7},
                 actions=["\\boxed{10}", "\\boxed{5}", "\\boxed{15}"]),
    "math": dict(id="math:Math12K", config={}, wrappers=[], reset={"idx": 3},
                 actions=["\\boxed{5\\sqrt{2}}"]),
    "tool": dict(id="math:Math12K", config={}, wrappers=["python_tool"], reset={"idx": 3},
                 actions=["<python>print(6*7)</python>", "\\boxed{5\\sqrt{2}}"]),
}


def direct(spec: dict) -> list:
    """The episode on geode's own API: the first observation, then each step's
    (observation, reward, terminated, truncated)."""
    env = geode.make(spec["id"], wrappers=spec["wrappers"], **spec["config"])
    first, _ = env.reset(**spec["reset"])
    steps = [env.step(action)[:4] for action in spec["actions"]]
    env.close()
    return [first, *[[obs, float(r), bool(t), bool(u)] for obs, r, t, u in steps]]


class Served:
    """OpenEnv's app for one geode env, served by uvicorn on a free loopback port."""

    def __init__(self, app):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "OpenEnv's server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *_):
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.mark.parametrize("name", sorted(EPISODES))
def test_openenv_server_plays_geode_envs_like_the_direct_api(name):
    spec = EPISODES[name]
    app = create_app(spec["id"], spec["config"], spec["wrappers"])
    with Served(app) as served, GenericEnvClient(base_url=served.url).sync() as client:
        first = client.reset(**spec["reset"])
        steps = [client.step({"message": a}) for a in spec["actions"]]
    played = [first.observation["text"],
              *[[s.observation["text"], float(s.reward), s.observation["terminated"],
                 s.observation["truncated"]] for s in steps]]
    assert played == direct(spec)
    assert steps[-1].done == (name != "game")  # the game goes on after three guesses


def test_environment_classes_step_in_process():
    spec = EPISODES["tool"]
    env = environment_class(spec["id"], spec["config"], spec["wrappers"])()
    first = env.reset(**spec["reset"])
    steps = [env.step(TextAction(message=a)) for a in spec["actions"]]
    assert [first.text, *[[s.text, s.reward, s.terminated, s.truncated] for s in steps]] == direct(spec)
    assert env.state.step_count == len(spec["actions"])
    env.close()


def test_bad_options_fail_when_the_class_is_made():
    with pytest.raises(geode.UnknownEnvError):
        environment_class("game:NoSuchGame-v0")
    with pytest.raises(geode.BadConfigError):
        environment_class("game:GuessTheNumber-v0-hard", {"max_turns": "many"})
    with pytest.raises(TypeError, match="wrapper|mapping|string"):
        environment_class("game:GuessTheNumber-v0-hard", config=["not", "a", "mapping"])


def test_a_malformed_action_is_refused_and_the_server_goes_on():
    spec = EPISODES["game"]
    with Served(create_app(spec["id"], spec["config"])) as served:
        refused = httpx.post(f"{served.url}/step", json={"action": {"message": 42}}, timeout=10)
        assert refused.status_code == 422, refused.text
        with GenericEnvClient(base_url=served.url).sync() as client:
            first = client.reset(**spec["reset"])
            assert first.observation["text"] == direct(spec)[0]
