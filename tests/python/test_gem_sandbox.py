"""``geode.utils.sandbox`` against GEM's own ``gem.utils.sandbox``, case for case: the results
GEM gave (tests/data/gem_utils/sandbox.json, recorded by tests/data/gem_utils/record.py)
replayed without GEM; then what geode does differently on purpose (its module docstring lists
it), checked as geode's own, bounded behaviour.

GEM's programs run in the host's CPython, geode's in the sandbox's: a traceback's frames and
line numbers differ (the runner's own frames; GEM's rerun puts its ``BASE_IMPORTS``, one line
longer than geode's, before the program), so stderr is compared by its last line, the error
itself. Everything else is compared exactly."""

import json
import subprocess
import time

import pytest

from test_gem_qa_em import GOLDEN, RECORDER

CASES = json.loads((GOLDEN / "sandbox.json").read_text())["cases"]
# Recorded cases where geode differs on purpose (the sandbox has no C types and no processes,
# whatever `sandbox_type` says), with the last line of geode's stderr: the program fails.
DIFFERENT = {
    "subprocess_run('import ctypes', [], 'none', stdin=None, timeout=10)":
        "ModuleNotFoundError: No module named 'ctypes'",
    "subprocess_run(\"import os\\nos.system('true')\", [], 'none', stdin=None, timeout=10)":
        "AttributeError: module 'os' has no attribute 'system'",
}


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


@pytest.mark.parametrize("case", CASES, ids=[c["call"][:70] for c in CASES])
def test_sandbox_equals_gem(case):
    from geode.utils import sandbox

    got = RECORDER.evaluate(case["call"], vars(sandbox))
    if not isinstance(case.get("returns"), list) or "raises" in got:  # a verdict or an exception
        assert {"call": case["call"], **got} == case
        return
    success, stdout, stderr = got["returns"]
    gem_success, gem_stdout, gem_stderr = case["returns"]
    if case["call"] in DIFFERENT:
        assert gem_success and (success, stdout, _last_line(stderr)) == (False, "", DIFFERENT[case["call"]])
        return
    assert (success, stdout) == (gem_success, gem_stdout), stderr
    assert _last_line(stderr) == _last_line(gem_stderr), stderr
    assert stderr.startswith("\n") == gem_stderr.startswith("\n")  # the timed-out message


def test_the_recording_covers_every_public_function():
    from geode.utils import sandbox

    called = {case["call"].split("(", 1)[0] for case in CASES}
    assert called == {name for name in sandbox.__all__ if callable(getattr(sandbox, name))}


def test_gems_constants_and_names():
    from geode.utils import sandbox

    assert (sandbox.DEFAULT_TIMEOUT, sandbox.CLI_ARG_SIZE_LIMIT) == (10, 3072)
    assert sandbox.ERROR_MSG_PREFIX == "Failed to execute program: "
    assert sandbox.BASE_IMPORTS.startswith("from itertools import") and "import pandas" not in sandbox.BASE_IMPORTS


# What geode does differently on purpose.


def test_run_python_honours_its_timeout():
    """GEM passes no timeout on (it always waits 10 s); geode stops at the one given."""
    from geode.utils.sandbox import run_python

    started = time.monotonic()
    assert run_python("while True:\n    pass", "none", timeout=0.5) == (
        False, "", "\nExecution timed out after 0.5 seconds.")
    assert time.monotonic() - started < 5


def test_no_timeout_still_has_the_default_bound():
    """GEM's ``timeout=None`` is no limit at all; geode's is its default."""
    from geode.utils.sandbox import subprocess_run

    with pytest.raises(subprocess.TimeoutExpired):
        subprocess_run("import time\ntime.sleep(3600)", [], "bwrap", timeout=None)


@pytest.mark.parametrize("code", [
    "print(open('/etc/hostname').read())",
    "import os\nprint(os.listdir('/'))",
    "open('written.txt', 'w').write('x')",
    "import socket\nsocket.create_connection(('127.0.0.1', 80), timeout=1)",
    "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:1/')",
    "import subprocess\nsubprocess.run(['true'])",
    "import os\nos.system('true')\nassert False, 'ran a shell'",
])
def test_the_program_reaches_nothing_outside_whatever_the_sandbox_type(code):
    """No files, network or processes, under "bwrap" as under "none" (GEM's "none" runs the
    program as the caller's user, with the caller's files and network)."""
    from geode.utils.sandbox import run_python

    success, stdout, stderr = run_python(code, "bwrap", timeout=5)
    assert success is False and stdout == "" and stderr, stderr


def test_the_environment_is_empty():
    from geode.utils.sandbox import run_python

    assert run_python("import os\nprint(dict(os.environ))", "bwrap") == (True, "{}\n", "")


def test_memory_and_output_are_capped():
    from geode.utils.sandbox import run_python, subprocess_run

    success, _, stderr = run_python("x = bytearray(1 << 30)", "none")
    assert success is False and _last_line(stderr).startswith("MemoryError"), stderr
    success, stdout, stderr = subprocess_run("print('x' * (4 << 20))", [], "none")
    assert success is False and len(stdout) <= 1 << 20 and "OutputLimitError" in stderr


def test_cmd_list_is_left_as_it_was():
    from geode.utils.sandbox import subprocess_run

    cmd_list = ["bwrap", "--unshare-all"]
    assert subprocess_run("print(1)", cmd_list, "bwrap") == (True, "1\n", "")
    assert cmd_list == ["bwrap", "--unshare-all"]


def test_an_unknown_sandbox_type_is_a_clear_error():
    import geode
    from geode.utils.sandbox import run_python

    with pytest.raises(geode.InvalidArgumentError, match="sandbox_type"):
        run_python("print(1)", "docker")


def test_timeout_expired_carries_the_partial_output():
    from geode.utils.sandbox import subprocess_run

    with pytest.raises(subprocess.TimeoutExpired) as caught:
        subprocess_run("print('partial', flush=True)\nwhile True:\n    pass", [], "none", timeout=0.5)
    assert caught.value.timeout == 0.5 and caught.value.output == "partial\n"
