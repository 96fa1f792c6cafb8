"""``geode.sandbox``: run untrusted programs from Python. Statuses, limits (every runaway ends
within a bound), stdin, isolation between runs, parallel batches, and hostile arguments
(always a ``geode`` error, never a crash)."""

import dataclasses
import math
import threading
import time

import pytest

import geode
from geode import sandbox
from geode.sandbox import Request, Status

LOOP = "while True:\n    pass"


def test_a_program_runs_and_says_how_it_ended():
    out = sandbox.run("print(sum(map(int, input().split())))", stdin="2 3\n")
    assert (out.status, out.stdout, out.stderr, out.exit_code) == ("ok", "5\n", "", 0)
    assert out.status is Status.OK and str(out.status) == "ok" and out.success and not out.timed_out
    assert out.fuel_used > 0 and 0 < out.elapsed < 10
    with pytest.raises(dataclasses.FrozenInstanceError):
        out.status = Status.MEMORY


def test_numbers_of_other_types_are_taken():
    np = pytest.importorskip("numpy")
    out = sandbox.run("print(1)", timeout=np.float32(2.5), memory=np.int64(64 << 20), fuel=np.uint64(10 ** 9))
    assert out.success


def test_geode_exposes_the_module():
    assert geode.sandbox is sandbox and "sandbox" in geode.__all__
    assert sandbox.FUEL_PER_SECOND == 10_000_000_000


@pytest.mark.parametrize("code, status, exit_code, last_line", [
    ("1 / 0", "runtime_error", 1, "ZeroDivisionError: division by zero"),
    ("def f(:\n  pass", "runtime_error", 1, "SyntaxError: invalid syntax"),
    ("import sys\nprint('out')\nsys.exit(3)", "ok", 3, ""),
    ("raise SystemExit('bye')", "ok", 1, "bye"),
    ("import os\nos._exit(7)", "ok", 1, ""),  # WASI carries only success or failure
    ("import nonexistent_module", "runtime_error", 1, "ModuleNotFoundError: No module named 'nonexistent_module'"),
])
def test_failures_are_statuses_not_exceptions(code, status, exit_code, last_line):
    out = sandbox.run(code)
    assert (out.status, out.exit_code) == (status, exit_code), out.stderr
    assert (out.stderr.strip().splitlines() or [""])[-1] == last_line
    assert not out.success


def test_an_infinite_loop_ends_at_the_timeout():
    started = time.monotonic()
    out = sandbox.run(LOOP, timeout=0.5)
    assert out.timed_out and out.status in ("deadline", "out_of_fuel") and out.exit_code == -1
    assert "TimeoutError" in out.stderr and time.monotonic() - started < 5


def test_fuel_is_a_deterministic_budget():
    outs = sandbox.run_many([LOOP] * 2, fuel=200_000_000, timeout=60)
    assert [o.status for o in outs] == ["out_of_fuel"] * 2
    assert all(o.fuel_used >= 200_000_000 for o in outs)
    counted = sandbox.run_many(["print(sum(range(1000)))"] * 3)
    assert len({o.fuel_used for o in counted}) == 1  # the same program burns the same fuel


def test_a_timeout_without_fuel_gets_that_many_seconds_of_fuel():
    out = sandbox.run(LOOP, timeout=0.05)
    assert out.timed_out and out.fuel_used <= 0.05 * sandbox.FUEL_PER_SECOND


def test_sleeping_past_the_timeout_ends_at_once():
    started = time.monotonic()
    out = sandbox.run("import time\ntime.sleep(3600)", timeout=2)
    assert out.status == "deadline" and time.monotonic() - started < 2


@pytest.mark.parametrize("code", [
    "x = bytearray(512 << 20)",
    "chunks = []\nwhile True:\n    chunks.append(bytearray(1 << 20))",
    "s = 'x'\nwhile True:\n    s += s",
])
def test_a_memory_bomb_ends_with_the_memory_status(code):
    started = time.monotonic()
    out = sandbox.run(code, memory=64 << 20, timeout=20)
    assert out.status == "memory" and not out.success, out.stderr
    assert time.monotonic() - started < 20


def test_an_output_bomb_ends_with_the_output_limit_status():
    out = sandbox.run("while True:\n    print('x' * 10000)")
    assert out.status == "output_limit" and len(out.stdout) <= 1 << 20


def test_stdin_is_the_programs_only_input():
    data = "".join(f"{i}\n" for i in range(100_000))
    out = sandbox.run("import sys\nnums = sys.stdin.read().split()\nprint(len(nums), sum(map(int, nums)))", data)
    assert out.stdout == f"100000 {sum(range(100_000))}\n"
    assert sandbox.run("print(input())").stderr.strip().endswith("EOFError: EOF when reading a line")
    assert sandbox.run("print(input())", stdin="é ✓ 漢字").stdout == "é ✓ 漢字\n"


def test_nothing_survives_a_run():
    first, second = sandbox.run_many([
        "import builtins, sys\nbuiltins.leak = 1\nsys.modules['json'] = None\nprint('set')",
        "import builtins, json\nprint(hasattr(builtins, 'leak'), json.dumps(1))",
    ])
    assert first.stdout == "set\n" and second.stdout == "False 1\n"
    again = sandbox.run("import builtins\nprint(hasattr(builtins, 'leak'))")
    assert again.stdout == "False\n"


def test_the_program_sees_no_files_network_or_environment():
    out = sandbox.run("import os\nprint(dict(os.environ))\nprint(open('/etc/hostname').read())")
    assert out.stdout == "{}\n" and out.status == "runtime_error"
    out = sandbox.run("import socket\nsocket.create_connection(('127.0.0.1', 80), timeout=1)", timeout=5)
    assert out.status == "runtime_error"


def test_the_seed_replays_randomness():
    code = "import random, os\nprint(random.random(), os.urandom(4).hex())"
    a, b, c = sandbox.run_many([code, code, Request(code, seed=9)], seed=5)
    assert a.stdout == b.stdout != c.stdout
    assert sandbox.run(code, seed=9).stdout == c.stdout


def test_run_many_keeps_the_order_and_mixes_requests():
    programs = [f"print({i})" for i in range(12)]
    programs[3] = Request("print(input())", stdin="from the request")
    programs[5] = Request(LOOP, timeout=0.3)
    outs = sandbox.run_many(programs, stdin="from the call")
    plain = [i for i in range(12) if i not in (3, 5)]
    assert [outs[i].stdout for i in plain] == [f"{i}\n" for i in plain]
    assert outs[3].stdout == "from the request\n" and outs[5].timed_out
    assert sandbox.run_many([]) == [] and sandbox.run_many(iter(["print(1)"]))[0].stdout == "1\n"


def test_runs_release_the_gil():
    ticks = []
    worker = threading.Thread(target=lambda: ticks.append(sandbox.run(LOOP, timeout=1)))
    worker.start()
    counted = 0
    while worker.is_alive():
        counted += 1
    worker.join()
    assert ticks[0].timed_out and counted > 10_000


@pytest.mark.parametrize("kwargs, words", [
    ({"code": 42}, "code must be a str, not int"),
    ({"code": b"print(1)"}, "code must be a str, not bytes"),
    ({"code": None}, "code must be a str, not NoneType"),
    ({"code": "print(1)", "stdin": 5}, "stdin must be a str"),
    ({"code": "x = '\ud800'"}, "code is not valid text"),
    ({"code": "1", "timeout": -1}, "timeout must be a positive number of seconds"),
    ({"code": "1", "timeout": 0}, "timeout must be a positive number of seconds"),
    ({"code": "1", "timeout": math.nan}, "timeout must be a positive number of seconds"),
    ({"code": "1", "timeout": math.inf}, "timeout must be a positive number of seconds"),
    ({"code": "1", "timeout": 10 ** 400}, "timeout is too large"),
    ({"code": "1", "timeout": "5"}, "timeout must be a number of seconds, not str"),
    ({"code": "1", "timeout": True}, "timeout must be a number of seconds, not bool"),
    ({"code": "1", "memory": -1}, "memory must be an int in [1, 2**64)"),
    ({"code": "1", "memory": 1.5}, "memory must be an int, not float"),
    ({"code": "1", "fuel": 0}, "fuel must be an int in [1, 2**64)"),
    ({"code": "1", "fuel": 2 ** 64}, "fuel must be an int in [1, 2**64)"),
    ({"code": "1", "seed": -3}, "seed must be an int in [0, 2**64)"),
])
def test_bad_arguments_are_geode_errors(kwargs, words):
    with pytest.raises(geode.InvalidArgumentError) as caught:
        sandbox.run(**kwargs)
    assert words in str(caught.value)
    assert isinstance(caught.value, (geode.GeodeError, ValueError))


def test_bad_batches_are_geode_errors():
    with pytest.raises(geode.InvalidArgumentError, match="not one program"):
        sandbox.run_many("print(1)")
    with pytest.raises(geode.InvalidArgumentError, match=r"code must be a str, not int \(program 1\)"):
        sandbox.run_many(["print(1)", 2])
    with pytest.raises(geode.InvalidArgumentError, match=r"program 0"):
        sandbox.run_many([Request("1", memory=0)])


@pytest.mark.parametrize("code", [
    "print('\\0')\x00",
    "(" * 100_000,
    "x = " + "1 + " * 200_000 + "1",
    "def f():\n    f()\nf()",
    "import ctypes\nctypes.CDLL(None)",
    "import sys\nsys.stdout.close()\nprint('gone')",
    "import sys\nsys.setrecursionlimit(10 ** 9)\ndef f(n):\n    return f(n + 1)\nf(0)",
    "import gc\ngc.disable()\nx = [[]]\nwhile True:\n    x = [x, x]",
    "# " + "x" * (4 << 20),
])
def test_hostile_programs_end_in_a_status(code):
    out = sandbox.run(code, timeout=10, memory=128 << 20)
    assert isinstance(out.status, Status) and out.elapsed < 15
    assert sandbox.run("print('still fine')").stdout == "still fine\n"
