"""OpenEnv 0.10's own clients and models (``openenv``, unmodified) against the real
``geode serve``, on a game, a math dataset env and the same env with the python tool wrapper:
episodes through ``GenericEnvClient`` (async and sync) and a typed ``EnvClient`` equal geode's
direct path (the ``geode`` package, ``direct.py``); every reply validates against OpenEnv's
models and geode's own ``/schema``; the task API picks rows; the wrapper's tools answer on
``/mcp`` (HTTP, WebSocket, ``/ws`` messages, ``MCPToolClient``); malformed input gets the
protocol's error shape and the server goes on serving. Skipped when run with openenv-core 0.3's
venv (test_protocol.py covers both); run it with
``bash host/serve/openenv-venv.sh 0.10 && target/openenv10-venv/bin/python -m pytest -q tests/openenv``."""

import asyncio
import importlib.metadata
import json

import httpx
import pytest

try:
    OPENENV = importlib.metadata.version("openenv")
except importlib.metadata.PackageNotFoundError:
    pytest.skip("openenv 0.10 is not in this venv (openenv-core 0.3's venv runs test_protocol.py)",
                allow_module_level=True)

import jsonschema  # noqa: E402  (openenv 0.10 depends on it)
from openenv.core.client_types import StepResult  # noqa: E402
from openenv.core.env_client import EnvClient  # noqa: E402
from openenv.core.env_server.mcp_types import JsonRpcResponse  # noqa: E402
from openenv.core.env_server.types import (  # noqa: E402
    Action, EnvironmentMetadata, GetTaskRangeRequest, GetTaskRequest, HealthResponse,
    ListTasksRequest, NumTasksRequest, Observation, ResetResponse, SchemaResponse, State,
    StepResponse, WSErrorResponse, WSObservationResponse, WSStateResponse,
)
from openenv.core.generic_client import GenericEnvClient  # noqa: E402
from openenv.core.mcp_client import MCPToolClient  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from conftest import direct, serve  # noqa: E402

GUESS = {"min_number": 1, "max_number": 20, "max_turns": 10}

# The three envs: how to serve each, and one scripted episode of each (reset parameters and
# actions; the game's actions are a binary search, fixed here for seed 7).
ENVS = {
    "game": dict(id="game:GuessTheNumber-v0-hard", config=GUESS, wrappers=[],
                 reset={"seed": 7}, actions=["\\boxed{10}", "\\boxed{5}", "\\boxed{15}"]),
    "math": dict(id="math:Math12K", config={}, wrappers=[],
                 reset={"split": "train", "index": 3}, actions=["\\boxed{5\\sqrt{2}}"]),
    "tool": dict(id="math:Math12K", config={}, wrappers=["python_tool"],
                 reset={"split": "train", "index": 3},
                 actions=["<python>print(6*7)</python>", "\\boxed{5\\sqrt{2}}"]),
}


def serve_spec(spec: dict, *args: str):
    """``geode serve`` of one of ``ENVS``, with more flags."""
    args = ["--config", json.dumps(spec["config"]), *args]
    if spec["wrappers"]:
        args += ["--wrappers", ",".join(spec["wrappers"])]
    return serve(spec["id"], *args)


@pytest.fixture(scope="module", params=list(ENVS))
def env(request):
    """A served env: its settings (``ENVS``) and its running server (``server``)."""
    spec = dict(ENVS[request.param], name=request.param)
    with serve_spec(spec) as server:
        spec["server"] = server
        yield spec


def expected(spec: dict) -> list:
    """The scripted episode on geode's direct path: ``[first text, (text, reward, terminated,
    truncated)...]``."""
    episode = {"actions": spec["actions"]}
    episode.update({"index": spec["reset"]["index"]} if "index" in spec["reset"]
                   else {"seed": spec["reset"]["seed"]})
    out = direct(spec["id"], spec["config"], spec["wrappers"], [episode])[0]
    return [out["first"], *[tuple(step) for step in out["steps"]]]


def trace(first: StepResult, steps: list) -> list:
    """The same shape from a client's step results (observations as dicts)."""
    def obs(result):
        o = result.observation
        return o if isinstance(o, dict) else o.model_dump()
    out = [obs(first)["text"]]
    for result in steps:
        o = obs(result)
        assert result.done == (o["terminated"] or o["truncated"])
        out.append((o["text"], result.reward, o["terminated"], o["truncated"]))
    return out


def test_async_generic_client_equals_the_direct_path(env):
    async def play():
        async with GenericEnvClient(base_url=env["server"].url) as client:
            first = await client.reset(**env["reset"])
            assert first.reward is None and first.done is False and first.metadata is None
            steps = [await client.step({"message": a}) for a in env["actions"]]
            state = await client.state()
        return first, steps, state
    first, steps, state = asyncio.run(play())
    assert trace(first, steps) == expected(env)
    assert State.model_validate(state).step_count == len(env["actions"])
    assert state["env_id"] == env["id"]


def test_sync_generic_client_equals_the_direct_path(env):
    with GenericEnvClient(base_url=env["server"].url).sync() as client:
        first = client.reset(**env["reset"], episode_id="sync-1")
        steps = [client.step({"message": a}) for a in env["actions"]]
        assert client.state()["episode_id"] == "sync-1"
    assert trace(first, steps) == expected(env)


class TextAction(Action):
    """A geode text action, as a user of OpenEnv's typed client would declare it."""
    message: str


class TextObservation(Observation):
    """A geode text observation (OpenEnv's models forbid fields they do not declare)."""
    text: str
    terminated: bool
    truncated: bool
    info: dict


class GeodeState(State):
    env_id: str


class GeodeClient(EnvClient[TextAction, TextObservation, GeodeState]):
    """OpenEnv's typed client base, subclassed as its docs show."""

    def _step_payload(self, action: TextAction) -> dict:
        return action.model_dump()

    def _parse_result(self, payload: dict) -> StepResult[TextObservation]:
        observation = TextObservation(**payload["observation"], reward=payload.get("reward"),
                                      done=payload.get("done", False))
        return StepResult(observation=observation, reward=payload.get("reward"),
                          done=payload.get("done", False))

    def _parse_state(self, payload: dict) -> GeodeState:
        return GeodeState(**payload)


def test_typed_client_equals_the_direct_path(env):
    async def play():
        async with GeodeClient(base_url=env["server"].url) as client:
            first = await client.reset(**env["reset"])
            steps = [await client.step(TextAction(message=a)) for a in env["actions"]]
            return first, steps, await client.state()
    first, steps, state = asyncio.run(play())
    assert trace(first, steps) == expected(env)
    assert isinstance(state, GeodeState) and state.env_id == env["id"]
    assert state.step_count == len(env["actions"])


def test_replies_validate_against_openenvs_models_and_the_schema(env):
    url = env["server"].url
    with httpx.Client(base_url=url) as http:
        assert HealthResponse.model_validate(http.get("/health").json()).status == "healthy"
        schema = SchemaResponse.model_validate(http.get("/schema").json())
        meta = EnvironmentMetadata.model_validate(http.get("/metadata").json())
        assert meta.name == env["id"] and meta.version
        for state in (http.get("/state").json(),):
            State.model_validate(state)
            jsonschema.validate(state, schema.state)
        reset = http.post("/reset", json={**env["reset"], "episode_id": "models"}).json()
        ResetResponse.model_validate(reset)
        jsonschema.validate(reset["observation"], schema.observation)
        for action in env["actions"]:
            jsonschema.validate({"message": action}, schema.action)
            step = http.post("/step", json={"action": {"message": action},
                                            "episode_id": "models"}).json()
            StepResponse.model_validate(step)
            jsonschema.validate(step["observation"], schema.observation)
        state = http.get("/state", params={"episode_id": "models"}).json()
        jsonschema.validate(state, schema.state)

    async def over_ws():
        async with connect(f"{env['server'].ws_url}/ws") as ws:
            await ws.send(json.dumps({"type": "reset", "data": env["reset"]}))
            WSObservationResponse.model_validate_json(await ws.recv())
            await ws.send(json.dumps({"type": "step", "data": {"message": env["actions"][0]}}))
            WSObservationResponse.model_validate_json(await ws.recv())
            await ws.send(json.dumps({"type": "state"}))
            WSStateResponse.model_validate_json(await ws.recv())
    asyncio.run(over_ws())


def task_api(url: str, route: str, request=None) -> httpx.Response:
    """One call of the task API; ``request`` is one of OpenEnv's request models."""
    if request is None:
        return httpx.get(f"{url}{route}")
    return httpx.post(f"{url}{route}", json=request.model_dump(exclude_none=True))


def test_task_api_picks_the_rows_reset_starts(env):
    url, id = env["server"].url, env["id"]
    assert task_api(url, "/list_environments").json() == [id]
    splits = task_api(url, f"/{id}/splits")
    assert splits.status_code == 200
    if env["name"] == "game":
        # A game has no task list: no split, so any split is unknown, and reset takes no index.
        assert splits.json() == []
        refused = task_api(url, f"/{id}/num_tasks", NumTasksRequest(split="train"))
        assert refused.status_code == 404 and "no task list" in refused.json()["detail"]
        bad = httpx.post(f"{url}/reset", json={"index": 0})
        assert bad.status_code == 422 and "no task list" in bad.json()["detail"]
        return
    [split] = splits.json()
    # With no `dataset` configured, math:Math12K serves its bundled sample: a few rows.
    assert split["name"] == "train" and split["num_tasks"] >= 5
    count = task_api(url, f"/{id}/num_tasks", NumTasksRequest(split="train")).json()
    assert count == {"num_tasks": split["num_tasks"]}
    listed = task_api(url, f"/{id}/tasks", ListTasksRequest(split="train")).json()
    assert listed["env_name"] == id
    assert [t["index"] for t in listed["tasks"]] == list(range(min(100, split["num_tasks"])))
    task = task_api(url, f"/{id}/task", GetTaskRequest(split="train", index=3)).json()["task"]
    assert task == listed["tasks"][3]
    assert task["index"] == 3 and task["prompt"] == expected(env)[0]
    assert task["info"] == httpx.post(f"{url}/reset", json={"index": 3}).json()["observation"]["info"]
    ranged = task_api(url, f"/{id}/task_range",
                      GetTaskRangeRequest(split="train", start=2, stop=5)).json()["tasks"]
    assert [t["index"] for t in ranged] == [2, 3, 4] and ranged[1] == task
    tail = task_api(url, f"/{id}/task_range", GetTaskRangeRequest(split="train", start=-2))
    assert [t["index"] for t in tail.json()["tasks"]] == [split["num_tasks"] - 2,
                                                         split["num_tasks"] - 1]
    # Reset with a chosen task starts that row, over HTTP as over the clients.
    reset = httpx.post(f"{url}/reset", json={"split": "train", "index": 4}).json()
    assert reset["observation"]["text"] == ranged[2]["prompt"]
    one_shot = httpx.post(f"{url}/step", json={"action": {"message": env["actions"][0]},
                                               "split": "train", "index": 3}).json()
    assert (one_shot["observation"]["text"], one_shot["reward"]) == expected(env)[1][:2]
    # Out of range, a wrong split, an unknown env: the reason, with the status OpenEnv uses.
    out = task_api(url, f"/{id}/task", GetTaskRequest(split="train", index=10**9))
    assert out.status_code == 400 and "Invalid task index" in out.json()["detail"]
    assert task_api(url, f"/{id}/task", GetTaskRequest(split="test", index=0)).status_code == 404
    assert task_api(url, "/math:Nope/splits").status_code == 404
    bad = httpx.post(f"{url}/reset", json={"split": "train", "index": split["num_tasks"]})
    assert bad.status_code == 422 and "out of range" in bad.json()["detail"]


def rpc(method: str, params=None, id=1) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": params or {}, "id": id}


def test_mcp_tools_of_the_tool_wrapper(env):
    url = env["server"].url
    listed = JsonRpcResponse.model_validate(httpx.post(f"{url}/mcp", json=rpc("tools/list")).json())
    tools = listed.result["tools"]
    if env["name"] != "tool":
        assert tools == []
        missing = httpx.post(f"{url}/mcp", json=rpc("tools/call", {"name": "python"})).json()
        assert missing["error"]["code"] == -32602
        return
    assert [t["name"] for t in tools] == ["python"]
    assert "<python>" in tools[0]["description"]
    jsonschema.validate({"action": "x"}, tools[0]["inputSchema"])
    call = rpc("tools/call", {"name": "python", "arguments": {"action": "<python>print(6*7)</python>"}})
    out = httpx.post(f"{url}/mcp", json=call).json()
    assert out["result"]["isError"] is False
    assert out["result"]["content"] == [{"type": "text", "text": "Code execution result: 42\n\n"}]
    # The tool's answer is the wrapper's observation for the same call (the direct path).
    assert out["result"]["data"] == expected(env)[1][0]

    async def sockets():
        async with connect(f"{env['server'].ws_url}/mcp") as ws:
            await ws.send(json.dumps(call))
            over_mcp = json.loads(await ws.recv())
        async with connect(f"{env['server'].ws_url}/ws") as ws:
            await ws.send(json.dumps({"type": "mcp", "data": call}))
            over_ws = json.loads(await ws.recv())
        return over_mcp, over_ws
    over_mcp, over_ws = asyncio.run(sockets())
    assert over_mcp["result"] == out["result"]
    assert over_ws["type"] == "mcp" and over_ws["data"]["result"] == out["result"]

    # A kept session: tool calls and a WebSocket on it, then closed (a second close is refused).
    created = httpx.post(f"{url}/mcp", json=rpc("openenv/session/create")).json()
    session = created["result"]["session_id"]
    kept = rpc("tools/call", {**call["params"], "session_id": session})
    assert httpx.post(f"{url}/mcp", json=kept).json()["result"] == out["result"]

    async def attached():
        async with connect(f"{env['server'].ws_url}/ws?session_id={session}") as ws:
            await ws.send(json.dumps({"type": "reset", "data": {**env["reset"], "episode_id": "k"}}))
            await ws.recv()
            await ws.send(json.dumps({"type": "state"}))
            return json.loads(await ws.recv())["data"]
    assert asyncio.run(attached())["episode_id"] == "k"
    closing = rpc("openenv/session/close", {"session_id": session})
    assert httpx.post(f"{url}/mcp", json=closing).json()["result"]["closed"] is True
    assert httpx.post(f"{url}/mcp", json=closing).json()["error"]["code"] == -32602

    async def client():
        # OpenEnv's MCP client: a session over HTTP /mcp, its WebSocket attached to the same env.
        async with MCPToolClient(base_url=url) as tools_client:
            names = [t.name for t in await tools_client.list_tools()]
            text = await tools_client.call_tool("python", action="<python>print(2**10)</python>")
            first = await tools_client.reset(**env["reset"])
            step = await tools_client.step(TextAction(message=env["actions"][0]))
            return names, text, first, step
    names, text, first, step = asyncio.run(client())
    assert names == ["python"] and text == "Code execution result: 1024\n\n"
    assert first.observation.text == expected(env)[0]
    assert (step.observation.text, step.reward) == expected(env)[1][:2]


def test_malformed_input_gets_the_protocols_error_shape(env):
    url, id, proc = env["server"].url, env["id"], env["server"].proc
    http_cases = [
        ("/reset", b"{nope", 400),
        ("/reset", b'{"seed": "seven"}', 422),
        ("/reset", b'{"index": -1}', 422),
        ("/reset", b'{"index": 3, "split": 5}', 422),
        ("/reset", b'{"split": "train"}', 422),
        ("/step", b'{"action": {"message": ["x"]}}', 422),
        ("/step", b'{"action": {"message": "x"}, "episode_id": 12}', 422),
        (f"/{id}/num_tasks", b"{nope", 400),
        (f"/{id}/num_tasks", b'{"split": 3}', 422),
        (f"/{id}/task", b'{"split": "train", "index": "3"}', 422),
        (f"/{id}/task_range", b'{"split": "train", "start": "a"}', 422),
        (f"/{id}/tasks", b'{"split": "train", "extra": 1}', 422),
        ("/nope/num_tasks", b'{"split": "train"}', 404),
    ]
    for route, body, status in http_cases:
        r = httpx.post(f"{url}{route}", content=body, headers={"content-type": "application/json"})
        assert r.status_code == status and r.json()["detail"], (route, body, r.text)
    big = httpx.post(f"{url}/mcp", content=b"x" * (3 << 20))
    assert big.status_code == 413
    rpc_cases = [
        (b"{nope", -32700),
        (b"[1]", -32600),
        (b'{"jsonrpc": "1.0", "method": "tools/list", "id": 1}', -32600),
        (b'{"jsonrpc": "2.0", "method": 5, "id": 1}', -32600),
        (b'{"jsonrpc": "2.0", "method": "tools/list", "params": [1], "id": 1}', -32600),
        (b'{"jsonrpc": "2.0", "method": "tools/dance", "id": 1}', -32601),
        (b'{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": 1}, "id": 1}', -32602),
        (b'{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "python", '
         b'"arguments": {"code": 1}}, "id": 1}', -32602),
        (b'{"jsonrpc": "2.0", "method": "openenv/session/close", "params": {"session_id": "x"},'
         b' "id": 1}', -32602),
    ]
    for body, code in rpc_cases:
        r = httpx.post(f"{url}/mcp", content=body)
        assert r.status_code == 200, body
        reply = JsonRpcResponse.model_validate(r.json())
        assert reply.error is not None and reply.error.code == code, (body, r.text)

    async def ws():
        async with connect(f"{env['server'].ws_url}/mcp") as mcp:
            replies = []
            for text in ["{nope", '{"jsonrpc": "2.0"}', json.dumps(rpc("tools/list"))]:
                await mcp.send(text)
                replies.append(json.loads(await mcp.recv()))
        async with connect(f"{env['server'].ws_url}/ws") as sock:
            await sock.send(json.dumps({"type": "mcp", "data": {"method": "tools/list"}}))
            replies.append(json.loads(await sock.recv()))
            await sock.send(json.dumps({"type": "reset", "data": {"index": "x"}}))
            replies.append(json.loads(await sock.recv()))
        async with connect(f"{env['server'].ws_url}/ws?session_id=never-made") as sock:
            replies.append(json.loads(await sock.recv()))
        return replies
    replies = asyncio.run(ws())
    assert [r.get("error", {}).get("code") for r in replies[:3]] == [-32700, -32600, None]
    assert replies[3]["type"] == "mcp" and replies[3]["data"]["error"]["code"] == -32600
    WSErrorResponse.model_validate(replies[4])
    assert replies[4]["type"] == "error" and replies[4]["data"]["code"] == "VALIDATION_ERROR"
    assert replies[5]["data"]["code"] == "SESSION_ERROR" and "never-made" in replies[5]["data"]["message"]
    # Still serving: a whole episode goes through afterwards.
    assert proc.poll() is None
    with GenericEnvClient(base_url=url).sync() as client:
        first = client.reset(**env["reset"])
        steps = [client.step({"message": a}) for a in env["actions"]]
    assert trace(first, steps) == expected(env)


@pytest.mark.parametrize("name", list(ENVS))
def test_kept_sessions_count_against_capacity(name):
    spec = ENVS[name]
    with serve_spec(spec, "--max-sessions", "1") as server:
        url = server.url
        first = httpx.post(f"{url}/mcp", json=rpc("openenv/session/create")).json()
        session = first["result"]["session_id"]
        refused = JsonRpcResponse.model_validate(
            httpx.post(f"{url}/mcp", json=rpc("openenv/session/create")).json())
        assert refused.error.code == -32000 and refused.error.data["code"] == "CAPACITY_REACHED"
        with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
            with GenericEnvClient(base_url=url).sync() as client:
                client.reset()
        # Closing the kept session frees its slot: a whole episode then goes through.
        httpx.post(f"{url}/mcp", json=rpc("openenv/session/close", {"session_id": session}))
        with GenericEnvClient(base_url=url).sync() as client:
            first = client.reset(**spec["reset"])
            steps = [client.step({"message": a}) for a in spec["actions"]]
        assert trace(first, steps) == expected(dict(spec))
