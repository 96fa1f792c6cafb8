"""GEM's ``MCPTool`` (``gem.tools.mcp_tool``) on the host: an MCP client (the official Rust SDK)
of the servers in ``config``. An action's first
``<tool_call><tool_name>NAME</tool_name><arguments>{...}</arguments></tool_call>`` is checked
against the tool's input schema and called with ``execution_timeout``; the agent sees the result
as GEM shows it, or ``[Tool execution error: ...]`` / ``[Tool execution failed: ...]`` with
``has_error``. A server that dies or hangs is an error within the timeout, never a hang, and is
started again on the next attempt (``max_retries``).

``config`` is what GEM takes: a streamable-HTTP URL, one server entry (``{"command", "args",
"env", "cwd"}`` for a stdio server the tool spawns, ``{"url", "headers", "auth"}`` for HTTP), or
``{"mcpServers": {name: entry, ...}}`` (tools then named ``{name}_{tool}``)."""

import json
import re
from typing import Any, Dict, List, Optional, Tuple, Union

from geode import _geode
from geode.errors import PluginIOError
from geode.tools.native_tool import NativeTool

_TOOL_CALL = re.compile(
    r"<tool_call>\s*<tool_name>([^<]+)</tool_name>\s*<arguments>(.*?)</arguments>\s*</tool_call>", re.DOTALL)


class MCPTool(NativeTool):
    """``tool:mcp``. GEM's ``log_handler``, ``progress_handler`` and ``sampling_handler`` are
    Python callbacks the host-side client cannot call: passing one is an error.
    ``num_workers`` is accepted for GEM scripts and unused."""

    tool_type = "mcp"

    def __init__(self, config: Union[str, Dict[str, Any]], auth: Optional[str] = None,
                 headers: Optional[Dict[str, str]] = None, log_handler=None, progress_handler=None,
                 sampling_handler=None, max_retries: int = 3, delay_between_retries: float = 1.0,
                 execution_timeout: float = 30.0, validate_on_init: bool = True, num_workers: int = 1):
        handlers = {"log_handler": log_handler, "progress_handler": progress_handler,
                    "sampling_handler": sampling_handler}
        given = [name for name, handler in handlers.items() if handler is not None]
        if given:
            raise NotImplementedError(f"MCPTool runs its client on the host; {', '.join(given)} "
                                      "(Python callbacks) are not supported")
        self.raw_config = config
        self.max_retries = max_retries
        self.delay_between_retries = delay_between_retries
        self.execution_timeout = execution_timeout
        self.validate_on_init = validate_on_init
        self._auth, self._headers = auth, headers
        self._available_tools: Optional[List[Dict[str, Any]]] = None
        try:
            super().__init__("tool:mcp", self._native_config(validate_on_init))
        except PluginIOError as e:
            raise ValueError(f"Failed to connect to MCP server(s): {e}") from e
        self.num_workers = num_workers

    def _native_config(self, validate_on_init: bool) -> Dict[str, Any]:
        return {"server": self.raw_config, "auth": self._auth, "headers": self._headers,
                "timeout": self.execution_timeout, "max_retries": self.max_retries,
                "delay_between_retries": self.delay_between_retries, "validate_on_init": validate_on_init}

    @classmethod
    def from_url(cls, url: str, auth: Optional[str] = None, headers: Optional[Dict[str, str]] = None,
                 **kwargs) -> "MCPTool":
        """A tool of the streamable-HTTP server at ``url``."""
        return cls(config=url, auth=auth, headers=headers, **kwargs)

    @classmethod
    def from_config_file(cls, config_path: str, **kwargs) -> "MCPTool":
        """A tool of the servers in a JSON file (``{"mcpServers": {...}}`` or one entry)."""
        with open(config_path) as f:
            return cls(config=json.load(f), **kwargs)

    @classmethod
    def from_local_command(cls, server_params: Dict[str, Any], name: str = "default", **kwargs) -> "MCPTool":
        """A tool of a stdio server the tool spawns: ``{"command", "args", "env", "cwd"}``."""
        return cls(config={"mcpServers": {name: server_params}}, **kwargs)

    @classmethod
    def from_multi_server(cls, servers: Dict[str, str], **kwargs) -> "MCPTool":
        """A tool of several streamable-HTTP servers, ``{name: url}``."""
        config = {"mcpServers": {name: {"transport": "http", "url": url} for name, url in servers.items()}}
        return cls(config=config, **kwargs)

    def _server_names(self) -> List[str]:
        if isinstance(self.raw_config, dict) and "mcpServers" in self.raw_config:
            return sorted(self.raw_config["mcpServers"])
        return ["default"]

    def get_available_tools(self) -> List[Dict[str, Any]]:
        """The servers' tools, sorted by name: ``{"name", "description", "parameters",
        "server_info"}`` as GEM lists them."""
        if self._available_tools is None:
            servers = self._server_names()
            multi = len(servers) > 1
            tools = []
            listing = self.instruction_string().split("<tools>\n", 1)[1].rsplit("\n</tools>", 1)[0]
            for line in filter(None, listing.split("\n")):
                function = json.loads(line)["function"]
                server = next((s for s in servers if function["name"].startswith(f"{s}_")), None) if multi \
                    else servers[0]
                description = function["description"]
                if multi and server is not None:
                    description = description[len(f"[{server}] "):]
                    if description == f"Tool from {server} server":
                        description = ""
                tools.append({"name": function["name"], "description": description,
                              "parameters": function["parameters"],
                              "server_info": {"is_multi_server": multi, "servers": servers,
                                              "detected_server": server}})
            self._available_tools = tools
        return self._available_tools

    def _live(self):
        """The host-side tool, made again after ``close``."""
        if self._tool is None:
            self._tool = _geode.make_tool("tool:mcp", self._native_config(False))
        return self._tool

    def instruction_string(self) -> str:
        """GEM's tool-use instructions with every tool and its JSON schema."""
        return self._live().instructions()

    def execute_action(self, action: str) -> Tuple[bool, bool, str, str]:
        """GEM's ``(valid, has_error, observation, parsed_action)``. A call of an unknown tool is
        not valid, with GEM's message; an action without a call is ``(False, True, "", "")``."""
        out = self._live().execute(action)
        if out is not None:
            observation, has_error, parsed_action = out
            return True, has_error, observation, parsed_action
        found = _TOOL_CALL.search(action)
        if found is None:
            return False, True, "", ""
        try:
            json.loads(found.group(2).strip() or "{}")
        except json.JSONDecodeError:
            return False, True, "", ""
        names = ", ".join(tool["name"] for tool in self.get_available_tools())
        return False, True, f"Tool '{found.group(1).strip()}' not found. Available tools: {names}", found.group(0)

    def reconfigure(self, new_config: Union[str, Dict[str, Any]], auth: Optional[str] = None,
                    headers: Optional[Dict[str, str]] = None) -> None:
        """Points the tool at other servers (the current ones are stopped)."""
        self.close()
        self.raw_config, self._auth, self._headers = new_config, auth, headers
        self.config = self._native_config(False)
        self._available_tools = None

    def close(self) -> None:
        """Stops the servers' connections (a stdio server exits); the next use connects again."""
        self._tool = None
