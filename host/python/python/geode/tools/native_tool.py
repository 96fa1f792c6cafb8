"""``NativeTool``: a tool the host runs (``tool:python``, or any tool plugin's id) behind GEM's
``BaseTool`` interface. The call runs with the GIL released."""

from typing import Any, Optional, Tuple

from geode import _geode
from geode.tools.base_tool import BaseTool


class NativeTool(BaseTool):
    """Tool ``tool_id`` with config overrides ``config`` (unknown keys are an error). A tool
    wrapper whose tools are all native runs as one native layer in vector envs."""

    def __init__(self, tool_id: str, config: Optional[dict] = None):
        super().__init__()
        self.tool_id = tool_id
        self.config = dict(config or {})
        self._tool = _geode.make_tool(tool_id, self.config or None)
        self.tool_type = self._tool.tool_type

    @property
    def name(self) -> str:
        """The tool's id."""
        return self.tool_id

    def spec(self) -> Any:
        """The tool as the native tools layer takes it: an id, or ``[id, config]``."""
        return [self.tool_id, self.config] if self.config else self.tool_id

    def instruction_string(self) -> str:
        """The tool's instructions, from the tool itself."""
        return self._tool.instructions()

    def execute_action(self, action: str) -> Tuple[bool, bool, str, str]:
        """Runs the tool: ``(parsed, has_error, observation, parsed_action)``."""
        out = self._tool.execute(action)
        if out is None:
            return False, False, "", action
        observation, has_error, parsed_action = out
        return True, has_error, observation, parsed_action

    def __repr__(self) -> str:
        config = f", {self.config!r}" if self.config else ""
        return f"{type(self).__name__}({self.tool_id!r}{config})"
