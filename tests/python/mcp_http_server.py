"""An MCP server over streamable HTTP, written with the ``mcp`` package, for the tests of
``tool:mcp`` (Rust and Python). It listens on 127.0.0.1 at a free port and prints
``listening on http://127.0.0.1:PORT/mcp`` once it accepts connections.

Tools: ``add`` (two integers), ``greet`` (a name), ``slow`` (sleeps ``seconds``), ``fail``
(raises, so the call is a tool error), ``crash`` (ends the server in the middle of the call)."""

import asyncio
import os
import socket

import uvicorn

try:  # mcp 2
    from mcp.server.mcpserver import MCPServer as Server
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # mcp 1
    from mcp.server.fastmcp import FastMCP as Server
    from mcp.server.fastmcp.exceptions import ToolError

server = Server("geode-test-http")


@server.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


@server.tool()
def greet(name: str) -> str:
    """Greets someone by name."""
    return f"Hello, {name}!"


@server.tool()
async def slow(seconds: float) -> str:
    """Waits, then says how long."""
    await asyncio.sleep(seconds)
    return f"slept {seconds} s"


@server.tool()
def fail(why: str) -> str:
    """Always fails (a failure the tool reports, which the client sees)."""
    raise ToolError(f"failed as asked: {why}")


@server.tool()
def crash() -> str:
    """Ends the server in the middle of the call."""
    os._exit(3)


async def main() -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    app = server.streamable_http_app()
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    print(f"listening on http://127.0.0.1:{port}/mcp", flush=True)
    await uvicorn.Server(config).serve(sockets=[listener])


if __name__ == "__main__":
    asyncio.run(main())
