"""Records what GEM's own ``gem.utils.qa_em`` and ``gem.utils.sandbox`` return on the cases
below, for tests/python/test_gem_qa_em.py and test_gem_sandbox.py to replay against geode
without GEM. Run it with a Python that has GEM (``pip install gem-llm pylatexenc pandas``;
pandas because GEM's rerun with ``BASE_IMPORTS`` imports it):

    /path/to/gem-venv/bin/python tests/data/gem_utils/record.py

Each record is a call, written as Python source (``em_check('x', ('X',))``), and what it
returned or the name of the exception it raised. The sandbox cases keep to what geode
reproduces; where geode is deliberately different (files, network, memory, GEM's ignored
``run_python`` timeout) the tests check geode's own behaviour instead.
"""

import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

NORMALIZE = [
    "", " ", "The", "the cat", "A Cat", "an apple", "theory", "then a", "Anna", "a.b", "a-b", "U.S.A.",
    "Hello, World!", "  multiple   spaces\tand\nnewlines ", "Café", "CAFÉ", "straße", "İstanbul", "ΣΑΣ",
    "a\xa0b", "a\u2009b", "a\u3000b", "full－width！", "“quoted”", "it's", "rock'n'roll", "the-the", "the_the",
    "THE END", "a an the", "aa an", "the\u200bcat", "1,000", "3.14", "$5", "50%", "(a)", "[the]", "a\x0bb",
    "a\x1cb", "e\u0301the", "éthe", "theé", "ǅ", "ﬁne", "the2", "2the", "a's", "the,the", "A.", "Mr. Smith",
    "New York City", "the   Beatles", "\\boxed{a}", "<answer>An</answer>", "a\r\nb", "ª", "º the",
]
EM_CHECKS = [
    ("The Eiffel Tower", "eiffel tower"), ("Paris", ["London", "paris."]), ("Paris", ("London",)),
    ("x", []), ("", ""), ("", []), ("a", "the"), ("an", ["", "x"]), ("Rome", ["rome", "rome"]),
    ("the  U.S.", "us"), ("U.S.", "u s"), ("ΣΑΣ", "σας"), ("straße", "STRASSE"), ("x", {"X": 1}),
    ("apple", "an apple!"), ("1,000", "1000"), ("1,000", "1 000"), ("New-York", "newyork"),
    ("theory", "ory"), ("x", "x\n"), (None, "x"), ("x", None), ("x", [None]), ("x", [1]), ("x", 5),
    ("x", b"x"), (b"x", "x"), (5, "5"),
]

LOOP = "while True:\n    pass\n"
LONG = "total = 0\n" + "".join(f"total += {i}  # padding the program past GEM's command-line limit\n"
                               for i in range(80)) + "print(total)\n"
PROGRAMS = [
    # (code, stdin, timeout)
    ("print('hello')", None, 10),
    ("print(1, end='')", None, 10),
    ("print('é ✓ 漢字')", None, 10),
    ("import sys\nprint('to err', file=sys.stderr)\nprint('to out')", None, 10),
    ("import sys\nprint('  padded  ', file=sys.stderr)", None, 10),
    ("a, b = map(int, input().split())\nprint(a + b)", "2 3\n", 10),
    ("import sys\ndata = sys.stdin.read()\nprint(len(data), data.count('\\n'))", "x\ny\nz", 10),
    ("print(input())", None, 10),
    ("print(input())", "", 10),
    ("print(input()[::-1])", "abc", 10),
    ("1 / 0", None, 10),
    ("print('before')\nraise ValueError('bad value')", None, 10),
    ("def f(:\n    pass", None, 10),
    ("x = [1, 2\nprint(x)", None, 10),
    ("print(undefined_name)", None, 10),
    ("print(Counter('abca').most_common(1))", None, 10),
    ("print(sqrt(16), comb(5, 2))", None, 10),
    ("print(np.arange(3).sum())", None, 10),
    ("raise SystemExit(3)", None, 10),
    ("raise SystemExit(0)", None, 10),
    ("raise SystemExit('goodbye')", None, 10),
    ("import sys\nsys.exit(2)", None, 10),
    ("import os\nos._exit(0)", None, 10),
    ("import subprocess", None, 10),
    ("from socket import socket", None, 10),
    ("import threading", None, 10),
    ("import ctypes", None, 10),
    ("import os\nos.system('true')", None, 10),
    ("...", None, 10),
    ("", None, 10),
    ("pass", None, 10),
    ("import json\nprint(json.dumps({'a': [1, 2]}))", None, 10),
    ("import math, itertools\nprint(sum(1 for _ in itertools.permutations(range(6))), math.factorial(6))", None, 10),
    ("def f(n):\n    return f(n + 1)\nf(0)", None, 10),
    ("print('x' * 10000)", None, 10),
    ("for i in range(3):\n    print(i)\nassert False, 'checked'", None, 10),
    (LONG, None, 10),
    (LOOP, None, 1),
    ("import time\ntime.sleep(30)", None, 1),
    ("print('partial')\n" + LOOP, None, 1),
]
FORBIDDEN = [
    "import os", "import subprocess", "from subprocess import run", "import multiprocessing as mp",
    "import threading", "import socket", "import psutil", "import resource", "import ctypes",
    "os.system('ls')", "os.popen('ls')", "os.spawnl", "os.fork()", "os.execv", "sys.exit(0)", "os._exit(1)",
    "os.kill(1, 9)", "importsocket", "import  socket", "from socketserver import X", "import sockets",
    "# import subprocess", "print('import ctypes')", "x.os.system", "sys.exitcode", "", "import sys",
]


def evaluate(source: str, namespace: dict) -> dict:
    """What evaluating ``source`` in ``namespace`` gave, as recorded: ``{"returns": value}``
    (tuples as lists, as JSON has them) or ``{"raises": exception class name}``. The replaying
    tests call it too."""
    try:
        value = eval(source, dict(namespace))
    except Exception as error:  # noqa: BLE001 - the exception's class is the recorded result
        return {"raises": type(error).__name__}
    return {"returns": list(value) if isinstance(value, tuple) else value}


def record(calls, namespace):
    """Each call's source with what it returned or raised."""
    return [{"call": source, **evaluate(source, namespace)} for source in calls]


def call(function, *args, **kwargs):
    """``function(args..., kwargs...)`` as source."""
    parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{function}({', '.join(parts)})"


def main():
    from gem.utils import qa_em, sandbox

    # GEM's programs read the caller's stdin when given none: make that empty. And its
    # `python` is the first on PATH: make it this one.
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    os.chdir(tempfile.mkdtemp())  # GEM makes its temporary directories in "."

    qa_calls = [call("normalize_answer", s) for s in NORMALIZE]
    qa_calls += [call("em_check", p, g) for p, g in EM_CHECKS] + ["em_check('x', iter(['X']))"]
    qa = record(qa_calls, vars(qa_em))
    sandbox_calls = [call("check_forbidden_imports", code) for code in FORBIDDEN]
    for code, stdin, timeout in PROGRAMS:
        sandbox_calls.append(call("run_python", code, "none", stdin=stdin, timeout=timeout))
        sandbox_calls.append(call("subprocess_run", code, [], "none", stdin=stdin, timeout=timeout))
    runs = record(sandbox_calls, vars(sandbox))
    meta = {"recorded_with": f"gem-llm {_gem_version()}, Python {sys.version.split()[0]}"}
    (HERE / "qa_em.json").write_text(json.dumps({**meta, "cases": qa}, indent=1, ensure_ascii=False) + "\n")
    (HERE / "sandbox.json").write_text(json.dumps({**meta, "cases": runs}, indent=1, ensure_ascii=False) + "\n")
    print(f"recorded {len(qa)} qa_em and {len(runs)} sandbox cases")


def _gem_version() -> str:
    from importlib.metadata import version

    return version("gem-llm")


if __name__ == "__main__":
    main()
