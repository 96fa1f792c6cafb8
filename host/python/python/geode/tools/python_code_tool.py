"""GEM's ``PythonCodeTool`` (``gem.tools.python_code_tool``) on geode's sandbox: the first
``<python>...</python>`` or fenced python block of an action runs in a fresh CPython inside
WebAssembly, and the agent sees ``Code execution result: ...``."""

from geode.tools.native_tool import NativeTool


class PythonCodeTool(NativeTool):
    """``tool:python``. ``timeout`` (seconds) really bounds each run. ``sandbox_type`` is
    accepted for GEM scripts and ignored: every run is sandboxed. ``keep_error_last_line``
    keeps only the last line of an error, as GEM does."""

    def __init__(self, timeout: float = 5, sandbox_type: str = "none", keep_error_last_line: bool = False):
        super().__init__("tool:python", {"timeout": timeout, "keep_error_last_line": keep_error_last_line})
        self.timeout = timeout
        self.sandbox_type = sandbox_type
        self.keep_error_last_line = keep_error_last_line
