"""OpenEnv's own client (``openenv-core`` 0.3 or ``openenv`` 0.10, unmodified: this file runs
under both venvs) and plain HTTP against the real ``geode serve``: episodes over WebSocket and HTTP, the response models OpenEnv validates with,
malformed and oversize requests, capacity, idle timeout, disconnects, a trapping env, the token."""

import asyncio
import json
import re

import httpx
import pytest
from openenv.core.env_server.types import (
    EnvironmentMetadata, HealthResponse, ResetResponse, SchemaResponse, State, StepResponse,
)
from openenv.core.generic_client import GenericEnvClient
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from conftest import serve

GUESS = '{"min_number": 1, "max_number": 20, "max_turns": 10}'


def bisect_action(text: str, bounds: list) -> str:
    """The next guess of a binary search, narrowing ``bounds`` from the last hint in ``text``."""
    hint = re.search(r"guessed (\d+), and the target number is (higher|lower)", text)
    if hint:
        guess = int(hint.group(1))
        if hint.group(2) == "higher":
            bounds[0] = guess + 1
        else:
            bounds[1] = guess - 1
    return f"\\boxed{{{(bounds[0] + bounds[1]) // 2}}}"


async def play_ws(url: str, seed: int) -> list:
    """One episode through OpenEnv's async client: the (text, reward, done) of every step."""
    trajectory = []
    async with GenericEnvClient(base_url=url) as env:
        result = await env.reset(seed=seed)
        assert result.done is False and result.reward is None
        assert "Guess The Number" in result.observation["text"]
        bounds = [1, 20]
        while not result.done:
            result = await env.step({"message": bisect_action(result.observation["text"], bounds)})
            trajectory.append((result.observation["text"], result.reward, result.done))
        state = await env.state()
        assert state["step_count"] == len(trajectory)
        assert state["env_id"] == "game:GuessTheNumber-v0-hard"
    return trajectory


@pytest.fixture(scope="module")
def guess():
    with serve("game:GuessTheNumber-v0-hard", "--config", GUESS, "--max-sessions", "64") as server:
        yield server


@pytest.fixture
def small():
    """A server of its own: 4 sessions at most, closed after 2 s without a message."""
    with serve("game:GuessTheNumber-v0-hard", "--config", GUESS, "--max-sessions", "4",
               "--idle-timeout", "2") as server:
        yield server


def test_websocket_episodes_with_openenvs_client(guess):
    first = asyncio.run(play_ws(guess.url, seed=7))
    assert first[-1][1] == 1.0 and first[-1][2] is True
    assert "Congratulations" in first[-1][0]
    # The seed makes the episode replayable; another seed hides another number.
    assert asyncio.run(play_ws(guess.url, seed=7)) == first
    assert any(asyncio.run(play_ws(guess.url, seed=s)) != first for s in (8, 9, 10))


def test_sync_client_and_observation_fields(guess):
    with GenericEnvClient(base_url=guess.url).sync() as env:
        result = env.reset(seed=3, episode_id="mine")
        assert env.state()["episode_id"] == "mine"
        result = env.step({"message": "no number here"})
        obs = result.observation
        # A format error ends the episode: terminated, reward -0.1, the info carried along.
        assert obs["terminated"] is True and obs["truncated"] is False and result.done is True
        assert result.reward == pytest.approx(-0.1)
        assert "suffix" in obs["info"]


def test_sessions_are_isolated(guess):
    async def two_at_once():
        return await asyncio.gather(play_ws(guess.url, 11), play_ws(guess.url, 12),
                                    play_ws(guess.url, 11))
    a, b, c = asyncio.run(two_at_once())
    assert a == c and a != b


def test_http_routes_match_openenvs_models(guess):
    with httpx.Client(base_url=guess.url) as http:
        assert HealthResponse.model_validate(http.get("/health").json()).status == "healthy"
        schema = SchemaResponse.model_validate(http.get("/schema").json())
        assert schema.action["required"] == ["message"]
        meta = EnvironmentMetadata.model_validate(http.get("/metadata").json())
        assert meta.name == "game:GuessTheNumber-v0-hard" and meta.description
        State.model_validate(http.get("/state").json())
        # One-shot calls, as OpenEnv's HTTP routes are: a fresh env each.
        reset = ResetResponse.model_validate(http.post("/reset", json={"seed": 5}).json())
        assert "Guess The Number" in reset.observation["text"]
        step = StepResponse.model_validate(
            http.post("/step", json={"action": {"message": "\\boxed{10}"}, "seed": 5}).json())
        assert step.observation["text"].startswith("At turn 1")


def test_http_episode_by_episode_id(guess):
    with httpx.Client(base_url=guess.url) as http:
        reset = http.post("/reset", json={"seed": 7, "episode_id": "ep-1"})
        assert reset.status_code == 200
        texts, bounds, done = [], [1, 20], False
        text = reset.json()["observation"]["text"]
        while not done:
            body = {"action": {"message": bisect_action(text, bounds)}, "episode_id": "ep-1"}
            out = StepResponse.model_validate(http.post("/step", json=body).json())
            text, done = out.observation["text"], out.done
            texts.append((text, out.reward, done))
        state = http.get("/state", params={"episode_id": "ep-1"}).json()
        assert state["step_count"] == len(texts) and state["episode_id"] == "ep-1"
    # The same episode as the WebSocket one with this seed.
    assert texts == asyncio.run(play_ws(guess.url, seed=7))


@pytest.mark.parametrize("body, status, words", [
    (b"{not json", 400, "invalid JSON"),
    (b"[1, 2]", 422, "JSON object"),
    (b'{"action": "\\\\boxed{3}"}', 422, "must be an object"),
    (b'{"action": {"text": "x"}}', 422, "unknown action field"),
    (b'{"action": {"message": 3}}', 422, "must be a string"),
    (b'{"nothing": 1}', 422, "no `action`"),
    (b'{"action": {"message": "x"}, "timeout_s": -1}', 422, "timeout_s"),
    (b'{"action": {"message": "x"}, "episode_id": "never-reset"}', 404, "never-reset"),
])
def test_malformed_http_requests_get_4xx_with_the_reason(guess, body, status, words):
    response = httpx.post(f"{guess.url}/step", content=body,
                          headers={"content-type": "application/json"})
    assert response.status_code == status
    assert words in response.json()["detail"]


def test_malformed_reset_and_seed(guess):
    response = httpx.post(f"{guess.url}/reset", json={"seed": -4})
    assert response.status_code == 422 and "seed" in response.json()["detail"]
    assert httpx.post(f"{guess.url}/reset", content=b"").status_code == 200


def test_malformed_websocket_messages_keep_the_session(guess):
    async def run():
        async with connect(f"{guess.ws_url}/ws") as ws:
            replies = []
            for message in ["{oops", '{"type": "dance"}', '{"type": "step"}', "[]",
                            '{"type": "step", "data": {"message": 1}}',
                            '{"type": "reset", "data": {"seed": "x"}}',
                            '{"type": "state", "extra": 1}']:
                await ws.send(message)
                replies.append(json.loads(await ws.recv()))
            await ws.send(json.dumps({"type": "reset", "data": {"seed": 1}}))
            replies.append(json.loads(await ws.recv()))
            return replies
    replies = asyncio.run(run())
    codes = [r["data"].get("code") for r in replies[:-1]]
    assert codes == ["INVALID_JSON", "UNKNOWN_TYPE", "VALIDATION_ERROR", "VALIDATION_ERROR",
                     "VALIDATION_ERROR", "VALIDATION_ERROR", "VALIDATION_ERROR"]
    assert all(r["type"] == "error" and r["data"]["message"] for r in replies[:-1])
    assert replies[-1]["type"] == "observation"


def test_oversize_actions(guess):
    over_env_limit = "1" * (1_500_000)  # over the env's 1 MiB action limit, under the server's 2 MiB
    over_server_limit = "1" * (3 << 20)

    async def ws_run():
        async with GenericEnvClient(base_url=guess.url) as env:
            await env.reset(seed=1)
            with pytest.raises(RuntimeError, match="EXECUTION_ERROR"):
                await env.step({"message": over_env_limit})
            after = await env.step({"message": "\\boxed{10}"})  # the session goes on
        # Over the server's limit: refused (the reason, when the client is still reading, and
        # close code 1009), the connection closed, the server unharmed.
        replies = []
        try:
            async with connect(f"{guess.ws_url}/ws", max_size=None) as ws:
                await ws.send(json.dumps({"type": "step", "data": {"message": over_server_limit}}))
                replies.append(json.loads(await ws.recv()))
                await ws.recv()
        except (ConnectionClosed, ConnectionResetError) as e:
            rcvd = getattr(e, "rcvd", None)
            replies.append(None if rcvd is None else rcvd.code)
        return after, replies
    after, replies = asyncio.run(ws_run())
    assert after.observation["text"].startswith("At turn 1")
    assert replies[-1] in (None, 1009)
    for reply in replies[:-1]:
        assert reply["data"]["code"] == "VALIDATION_ERROR" and "limit" in reply["data"]["message"]

    with httpx.Client(base_url=guess.url) as http:
        r = http.post("/step", json={"action": {"message": over_env_limit}, "seed": 1})
        assert r.status_code == 413 and r.json()["kind"] == "InputTooLargeError"
        r = http.post("/step", json={"action": {"message": over_server_limit}})
        # The unread body leaves the connection unusable: the reply says so, the client reconnects.
        assert r.status_code == 413 and r.headers["connection"] == "close"
        assert http.get("/health").status_code == 200


def test_capacity_reached_and_disconnects_free_sessions(small):
    guess = small

    async def run():
        held = [await connect(f"{guess.ws_url}/ws") for _ in range(4)]
        for ws in held:
            await ws.send(json.dumps({"type": "reset", "data": {}}))
            assert json.loads(await ws.recv())["type"] == "observation"
        # A fifth session is refused with OpenEnv's capacity error, through its own client too.
        with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
            async with GenericEnvClient(base_url=guess.url) as env:
                await env.reset()
        async with connect(f"{guess.ws_url}/ws") as ws:
            refusal = json.loads(await ws.recv())
        assert refusal["data"]["code"] == "CAPACITY_REACHED"
        assert refusal["data"]["max_sessions"] == 4
        over_http = httpx.post(f"{guess.url}/reset", json={})
        assert over_http.status_code == 503
        # Dropping connections without a close message frees their envs.
        for ws in held:
            ws.transport.abort()
        await asyncio.sleep(0.5)
        return [await play_ws(guess.url, seed) for seed in range(4)]
    assert len(asyncio.run(run())) == 4


def test_idle_sessions_time_out(small):
    guess = small

    async def run():
        # Keepalive pings every 0.5 s are not activity: the session still times out.
        async with connect(f"{guess.ws_url}/ws", ping_interval=0.5) as ws:
            await ws.send(json.dumps({"type": "reset", "data": {}}))
            await ws.recv()
            await asyncio.sleep(2.5)
            reply = json.loads(await ws.recv())
            with pytest.raises(ConnectionClosed):
                await ws.recv()
            return reply
    reply = asyncio.run(run())
    assert reply["data"]["code"] == "SESSION_ERROR" and "without a message" in reply["data"]["message"]


def test_a_trapping_env_leaves_its_session_usable(hostile):
    async def run():
        async with GenericEnvClient(base_url=hostile.url) as env:
            await env.reset(seed=1)
            first = await env.step({"message": "a"})
            with pytest.raises(RuntimeError) as trapped:
                await env.step({"message": "trap"})
            again = await env.reset(seed=1)
            second = await env.step({"message": "a"})
            return first, str(trapped.value), again, second
    first, trapped, again, second = asyncio.run(run())
    assert "EXECUTION_ERROR" in trapped and "asked to trap" in trapped
    assert again.observation["text"] == "hostile:healthy ready"
    assert second.observation == first.observation and second.reward == 1.0

    async def raw():
        async with connect(f"{hostile.ws_url}/ws") as ws:
            await ws.send(json.dumps({"type": "reset", "data": {}}))
            await ws.recv()
            await ws.send(json.dumps({"type": "step", "data": {"message": "trap"}}))
            return json.loads(await ws.recv())
    error = asyncio.run(raw())["data"]
    assert error["code"] == "EXECUTION_ERROR" and error["kind"] == "GuestTrapError"
    r = httpx.post(f"{hostile.url}/step", json={"action": {"message": "trap"}})
    assert r.status_code == 500 and r.json()["kind"] == "GuestTrapError"
    assert httpx.get(f"{hostile.url}/health").status_code == 200


def test_bearer_token():
    with serve("game:GuessTheNumber-v0-hard", "--token", "s3cret") as server:
        assert httpx.get(f"{server.url}/health").status_code == 200
        assert httpx.post(f"{server.url}/reset", json={}).status_code == 401
        wrong = {"Authorization": "Bearer nope"}
        assert httpx.post(f"{server.url}/reset", json={}, headers=wrong).status_code == 401
        good = {"Authorization": "Bearer s3cret"}
        assert httpx.post(f"{server.url}/reset", json={}, headers=good).status_code == 200

        async def ws(headers):
            async with connect(f"{server.ws_url}/ws", additional_headers=headers) as ws:
                await ws.send(json.dumps({"type": "reset", "data": {}}))
                return json.loads(await ws.recv())["type"]
        assert asyncio.run(ws(good)) == "observation"
        with pytest.raises(Exception, match="401"):
            asyncio.run(ws({}))


def test_unknown_env_id_fails_at_start():
    with pytest.raises(RuntimeError, match="unknown env id"):
        with serve("game:NoSuchGame-v0"):
            pass
