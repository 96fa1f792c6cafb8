"""GEM's ``gem.utils.sandbox`` functions (``run_python``, ``subprocess_run``,
``check_forbidden_imports``) with GEM's signatures and results, running programs in geode's
sandbox (``geode.sandbox``) instead of a ``python`` subprocess.

    from geode.utils.sandbox import run_python   # or gem.utils.sandbox
    ok, stdout, stderr = run_python("print(input()[::-1])", "none", stdin="abc")   # (True, "cba\\n", "")

What stays GEM's: the ``(success, stdout, stderr)`` triples (success means exit code 0;
stderr is stripped, stdout is not), the string check that blocks "dangerous" code under
``sandbox_type="none"``, the rerun with ``BASE_IMPORTS`` of a program that failed on an
undefined name, ``subprocess.TimeoutExpired`` from ``subprocess_run`` and the "Execution
timed out" triple from ``run_python``, and the ``"..."`` shortcut.

Where geode differs on purpose: ``run_python`` honours its ``timeout`` (GEM's always waits
its default 10 s) and a ``None`` timeout means the default, never "no limit"; running out of
fuel counts as a timeout; the program sees no files, network, environment or subprocesses
whatever ``sandbox_type`` says (``"bwrap"`` and ``"none"`` differ only by the string check)
and never the caller's stdin (``None`` is empty); memory (256 MiB) and output (1 MiB per
stream) are capped, and a run over a cap fails; ``cmd_list`` is ignored and left as it was;
an unknown ``sandbox_type`` is an ``InvalidArgumentError`` (GEM fails on an unbound name), and
so is a timeout that is not a positive number of seconds.
"""

import subprocess
from typing import List, Optional, Tuple

from geode import _geode
from geode.errors import InvalidArgumentError
from geode.sandbox import Outcome, _run_gem, run

__all__ = [
    "BASE_IMPORTS",
    "CLI_ARG_SIZE_LIMIT",
    "DEFAULT_TIMEOUT",
    "ERROR_MSG_PREFIX",
    "check_forbidden_imports",
    "run_python",
    "subprocess_run",
]

#: Seconds a program may run when the caller gives no timeout.
DEFAULT_TIMEOUT = 10
#: GEM's size above which a program went to a file instead of ``python -c`` (kept for
#: importers; geode passes every program the same way).
CLI_ARG_SIZE_LIMIT = 1024 * 3
#: The prefix GEM's code envs put before a failure message.
ERROR_MSG_PREFIX = "Failed to execute program: "
#: The imports put before a program that failed on an undefined name (GEM's, without pandas,
#: which the sandbox does not ship).
BASE_IMPORTS: str = _geode.BASE_IMPORTS

_RISKY_MODULES = ("subprocess", "multiprocessing", "threading", "socket", "psutil", "resource", "ctypes")
_RISKY_CALLS = ("os.system", "os.popen", "os.spawn", "os.fork", "os.exec", "sys.exit", "os._exit", "os.kill")
_BLOCKED = "Execution blocked: Code contains potentially dangerous operations or imports."
_SANDBOX_TYPES = ("bwrap", "none")

Result = Tuple[bool, str, str]


def check_forbidden_imports(code: str) -> bool:
    """True when ``code`` mentions importing a module that reaches outside the process
    (``subprocess``, ``socket``, ``ctypes``...) or calls such as ``os.system`` or
    ``sys.exit``: a plain substring check, as GEM's."""
    imports = any(f"import {name}" in code or f"from {name}" in code for name in _RISKY_MODULES)
    return imports or any(call in code for call in _RISKY_CALLS)


def subprocess_run(code: str, cmd_list: List[str], sandbox_type: str, stdin: Optional[str] = None,
                   timeout: int = DEFAULT_TIMEOUT) -> Result:
    """Runs ``code`` once on ``stdin``: ``(success, stdout, stderr)``. Raises
    ``subprocess.TimeoutExpired`` when it runs out of time. ``cmd_list`` and
    ``sandbox_type`` (GEM's command prefix and its kind) do not change how it runs."""
    return _execute(code, lambda: run(code, stdin or "", timeout=timeout), timeout)


def run_python(code: str, sandbox_type: str, stdin: Optional[str] = None,
               timeout: int = DEFAULT_TIMEOUT) -> Result:
    """Runs ``code`` on ``stdin``: ``(success, stdout, stderr)``. Under ``sandbox_type="none"``
    code that :func:`check_forbidden_imports` flags is not run; a program that fails on an
    undefined name runs again after :data:`BASE_IMPORTS`; a timeout is a failure whose stderr
    says so."""
    if sandbox_type not in _SANDBOX_TYPES:
        raise InvalidArgumentError(f"sandbox_type must be one of {_SANDBOX_TYPES}, not {sandbox_type!r}")
    if sandbox_type == "none" and check_forbidden_imports(code):
        return False, "", _BLOCKED
    try:
        return _execute(code, lambda: _run_gem(code, stdin or "", timeout), timeout)
    except subprocess.TimeoutExpired:
        return False, "", f"\nExecution timed out after {timeout} seconds."


def _execute(code: str, start, timeout) -> Result:
    """GEM's triple for the run ``start`` makes (``"..."`` is never run: GEM answers it with a
    syntax error); ``subprocess.TimeoutExpired`` when the run ran out of time."""
    if code == "...":
        return False, "", "SyntaxError: invalid syntax"
    outcome: Outcome = start()
    if outcome.timed_out:
        raise subprocess.TimeoutExpired(["python", "-c", code], timeout, output=outcome.stdout,
                                        stderr=outcome.stderr)
    return outcome.success, outcome.stdout, outcome.stderr.strip()
