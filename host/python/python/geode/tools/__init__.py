"""Tools, as in ``gem.tools``: ``BaseTool`` for tools written in Python, ``NativeTool`` and
``PythonCodeTool``, ``SearchTool`` and ``MCPTool`` for tools the host runs, and ``ToolEnvWrapper``."""

from geode.tools.base_tool import BaseTool
from geode.tools.mcp_tool import MCPTool
from geode.tools.native_tool import NativeTool
from geode.tools.python_code_tool import PythonCodeTool
from geode.tools.search_tool import SearchTool
from geode.tools.tool_env_wrapper import ToolEnvWrapper

__all__ = ["BaseTool", "MCPTool", "NativeTool", "PythonCodeTool", "SearchTool", "ToolEnvWrapper"]
