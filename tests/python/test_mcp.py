"""``gem.tools.mcp_tool.MCPTool`` against real MCP servers: ``geode-mcp-test-server`` (Rust, stdio,
spawned by the tool) and ``mcp_http_server.py`` (the ``mcp`` package, streamable HTTP on
127.0.0.1): GEM's instructions and tuples, schema checks, a server that dies mid-call, a slow
call bounded by the timeout, and python + MCP tools in one ``ToolEnvWrapper``."""

import subprocess
import sys
import time
from functools import partial

import pytest

from conftest import ROOT

ADD = '<tool_call>\n<tool_name>add</tool_name>\n<arguments>{"a": 2, "b": 3}</arguments>\n</tool_call>'


def call(name, arguments="{}"):
    return f"<tool_call><tool_name>{name}</tool_name><arguments>{arguments}</arguments></tool_call>"


@pytest.fixture(scope="module")
def test_server():
    """The stdio test server (built by ``cargo test``; built here when missing)."""
    binary = ROOT / "target/release/geode-mcp-test-server"
    if not binary.exists():
        build = subprocess.run(["cargo", "build", "--release", "-p", "geode-mcp"], cwd=ROOT,
                               capture_output=True, text=True)
        assert build.returncode == 0, build.stderr[-800:]
    return str(binary)


@pytest.fixture()
def http_server():
    """``mcp_http_server.py`` on a free port, run by this Python (dev-install.sh installs ``mcp``)."""
    process = subprocess.Popen([sys.executable, str(ROOT / "tests/python/mcp_http_server.py")],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    assert line.startswith("listening on "), line
    yield line.split("listening on ", 1)[1].strip()
    process.kill()
    process.wait()


def test_gems_module_path_instructions_and_tuples(gem, test_server):
    from gem.tools.mcp_tool import MCPTool

    tool = MCPTool.from_local_command({"command": test_server})
    assert tool.tool_type == "mcp"
    text = tool.instruction_string()
    assert text.startswith("# Tool-Use Instructions\n\n") and text.endswith("\n</tools>")
    assert ('{"type": "function", "function": {"name": "add", "description": "Adds two integers.", '
            '"parameters": {"properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, '
            '"required": ["a", "b"], "type": "object"}}}') in text
    tools = tool.get_available_tools()
    assert [t["name"] for t in tools] == ["add", "die", "fail", "slow", "wrapped"]
    assert tools[0]["server_info"] == {"is_multi_server": False, "servers": ["default"], "detected_server": "default"}

    assert tool.execute_action(f"<think>sum</think>{ADD} done") == (True, False, "5", ADD)
    valid, has_error, obs, parsed = tool.execute_action(call("add", '{"a": 2}'))
    assert (valid, has_error, parsed) == (True, True, call("add", '{"a": 2}'))
    assert obs.startswith("[Tool execution error: the arguments of 'add' do not match its input schema: ")
    assert tool.execute_action(call("fail", '{"why": "x"}'))[:3] == (True, True, "[Tool execution error: failed as asked: x]")
    assert tool.execute_action(call("nope")) == (
        False, True, "Tool 'nope' not found. Available tools: add, die, fail, slow, wrapped", call("nope"))
    assert tool.execute_action(call("add", "{a: 1}")) == (False, True, "", "")
    assert tool.execute_action("<answer>5</answer>") == (False, True, "", "")


def test_a_server_that_dies_mid_call_then_starts_again(gem, test_server):
    from gem.tools.mcp_tool import MCPTool

    tool = MCPTool({"command": test_server}, max_retries=1)
    valid, has_error, obs, _ = tool.execute_action(call("die"))
    assert valid and has_error and obs.startswith("[Tool execution failed: die: "), obs
    assert tool.execute_action(ADD)[:3] == (True, False, "5")
    tool.close()
    assert tool.execute_action(ADD)[:3] == (True, False, "5"), "close, then connect again"


def test_the_mcp_package_over_streamable_http(gem, http_server):
    from gem.tools.mcp_tool import MCPTool

    tool = MCPTool.from_url(http_server, execution_timeout=1, max_retries=1)
    assert [t["name"] for t in tool.get_available_tools()] == ["add", "crash", "fail", "greet", "slow"]
    assert tool.execute_action(call("greet", '{"name": "Ada"}'))[:3] == (True, False, "Hello, Ada!")
    assert tool.execute_action(ADD)[:3] == (True, False, "5")
    started = time.monotonic()
    valid, has_error, obs, _ = tool.execute_action(call("slow", '{"seconds": 30}'))
    assert time.monotonic() - started < 4
    assert (valid, has_error, obs) == (True, True, "[Tool execution failed: slow: no answer within 1 s (timeout)]")
    valid, has_error, obs, _ = tool.execute_action(call("crash"))
    assert valid and has_error and obs.startswith("[Tool execution failed: crash: "), obs


def test_unreachable_servers_and_callbacks_are_errors(gem):
    from gem.tools.mcp_tool import MCPTool

    with pytest.raises(ValueError, match="Failed to connect to MCP server"):
        MCPTool({"command": "/nonexistent/mcp-server"})
    with pytest.raises(NotImplementedError, match="log_handler"):
        MCPTool("http://127.0.0.1:9/mcp", log_handler=print, validate_on_init=False)
    with pytest.raises(ValueError, match="execution_timeout|timeout"):
        MCPTool("http://127.0.0.1:9/mcp", execution_timeout=0, validate_on_init=False)


def test_python_and_mcp_tools_in_one_wrapper(gem, test_server):
    from gem.tools.mcp_tool import MCPTool
    from gem.tools.python_code_tool import PythonCodeTool
    from gem.tools.tool_env_wrapper import ToolEnvWrapper

    tools = [PythonCodeTool(), MCPTool({"command": test_server})]
    env = ToolEnvWrapper(gem.make("eval:PopQA"), tools=tools, tool_reward=0.1, tool_success_reward=0.2)
    obs, _ = env.reset(seed=0)
    assert "\nAvailable tools:\nSolve the above problem step by step." in obs and "# Tool-Use Instructions" in obs
    obs, reward, _, _, info = env.step(ADD)
    assert (obs, info["tool_type"], info["tool_success_counter"]) == ("5", "mcp", 1)
    assert reward == pytest.approx(0.3)
    obs, reward, _, _, info = env.step("<python>print(6 * 7)</python>")
    assert info["tool_type"] == "python_code" and obs == "Code execution result: 42\n\n"
    obs, reward, _, _, info = env.step(call("add", '{"a": "x", "b": 1}'))
    assert info["tool_type"] == "mcp" and reward == pytest.approx(0.1)
    assert (info["tool_use_counter"], info["tool_success_counter"]) == (3, 2)

    # In a vector env the wrapper runs as the native tools layer, one MCP client per env.
    wrapper = partial(ToolEnvWrapper, tools=tools, max_tool_uses=2)
    vec = gem.make_vec(["eval:PopQA"] * 2, wrappers=[wrapper], seed=0)
    assert type(vec).__name__ == "NativeVectorEnv"
    vec.reset()
    obs, _, _, _, infos = vec.step([ADD, "<python>print(1)</python>"])
    assert obs[0] == "5" and infos[0]["tool_type"] == "mcp" and infos[1]["tool_type"] == "python_code"
