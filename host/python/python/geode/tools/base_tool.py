"""GEM's tool interface (``gem.tools.base_tool``): what the Python ``ToolEnvWrapper`` calls."""

from typing import Tuple


class BaseTool:
    """A tool an agent can call from its action. Subclass it to write a tool in Python, or use a
    geode tool (``NativeTool``, ``PythonCodeTool``), which runs in the host."""

    #: The kind of tool, reported as ``info["tool_type"]`` after a tool turn.
    tool_type = "base"

    def __init__(self, num_workers: int = 1):
        self.num_workers = num_workers

    def instruction_string(self) -> str:
        """How to call the tool, appended to the first observation of an episode."""
        raise NotImplementedError(f"{type(self).__name__} must implement instruction_string()")

    def execute_action(self, action: str) -> Tuple[bool, bool, str, str]:
        """Runs the tool on ``action``: ``(parsed, has_error, observation, parsed_action)``.
        ``parsed`` is False when the action is not addressed to this tool."""
        raise NotImplementedError(f"{type(self).__name__} must implement execute_action()")
