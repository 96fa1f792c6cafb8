"""geode's Python runner: runs one untrusted program per call inside CPython compiled to a
WebAssembly component (componentize-py).

The host instantiates a fresh copy of this component for every run, so nothing a program does
(globals, monkey-patched modules, a closed stdout) outlives it. Isolation comes from the host:
the WASI context grants no files, sockets, environment variables or processes; stdin is an
in-memory pipe; stdout and stderr are captured and capped by the host; clocks are virtual and
sleeping costs no wall-clock time. This module adds the Python-level rules: which modules a
program may import, how `sys.exit` and uncaught exceptions are reported.
"""

import builtins
import gc
import io
import sys
import traceback
import types

# The modules a solution may import: GEM's BASE_IMPORTS (gem/utils/constants.py) without numpy
# and pandas, plus a few pure-computation modules competitive programs commonly use. Importing
# them here is what puts them in the component: componentize-py snapshots the interpreter after
# this module is loaded, and a module not loaded now does not exist at run time.
import bisect
import cmath
import collections
import copy
import datetime
import decimal
import fractions
import functools
import heapq
import itertools
import math
import operator
import os
import os.path
import random
import re
import statistics
import string
import time
import typing

import wit_world

# Top-level module names a program may import (submodules of these included).
ALLOWED_MODULES = frozenset(
    {
        "bisect",
        "cmath",
        "collections",
        "copy",
        "datetime",
        "decimal",
        "fractions",
        "functools",
        "heapq",
        "io",
        "itertools",
        "math",
        "operator",
        "os",
        "random",
        "re",
        "statistics",
        "string",
        "sys",
        "time",
        "typing",
    }
)

_real_import = builtins.__import__


def _guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    """`__import__` for programs: refuses modules outside the allow-list when the import comes
    from the program itself (the standard library's own imports pass through)."""
    caller = globals if globals is not None else sys._getframe(1).f_globals
    from_program = caller.get("__name__") == "__main__" or globals is None
    if from_program and level == 0:
        top = name.partition(".")[0]
        if top not in ALLOWED_MODULES:
            raise ImportError(
                f"import of {name!r} is not allowed in this sandbox", name=name
            )
    return _real_import(name, globals, locals, fromlist, level)


def _exit(code=None):
    """`exit()`/`quit()` as the `site` module defines them (it is not loaded here)."""
    raise SystemExit(code)


def _exit_code(code):
    """The process exit code `SystemExit(code)` stands for, as CPython computes it."""
    if code is None:
        return 0
    if isinstance(code, bool):
        return int(code)
    if isinstance(code, int):
        return code if -(2**31) <= code < 2**31 else 1
    sys.__stderr__.write(f"{code}\n")
    return 1


def _flush():
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except BaseException:
            pass


class WitWorld(wit_world.WitWorld):
    def run(self, code: str) -> wit_world.RunResult:
        # Program randomness comes from WASI random, which the host seeds per run.
        random.seed()
        main = types.ModuleType("__main__")
        main.__dict__["__builtins__"] = builtins
        sys.modules["__main__"] = main
        builtins.__import__ = _guarded_import
        builtins.exit = _exit
        builtins.quit = _exit
        exit_code, exception = 0, None
        try:
            exec(compile(code, "<main>", "exec"), main.__dict__)
        except SystemExit as stop:
            exit_code = _exit_code(stop.code)
        except BaseException as error:  # noqa: BLE001 - every uncaught exception is reported
            exit_code, exception = 1, type(error).__name__
            try:
                _flush()
                # Drop this module's own frames: the traceback shows the program only.
                report = traceback.TracebackException.from_exception(error)
                report.stack = traceback.StackSummary.from_list(
                    [frame for frame in report.stack if frame.filename != __file__]
                )
                sys.__stderr__.write("".join(report.format()))
            except BaseException:
                sys.__stderr__.write(f"{exception}\n")
        _flush()
        return wit_world.RunResult(exit_code, exception)


def _warm_up():
    """Exercises, at build time, what every run uses: traceback formatting (which imports
    `linecache` and friends lazily, and the standard library is only on the path now), the
    compiler, and the allocator, so the snapshot holds them ready."""
    try:
        raise ValueError("warm-up")
    except ValueError as error:
        traceback.TracebackException.from_exception(error).format()
    program = "import sys\nxs = sorted(int(v) * 2 for v in '3 1 2'.split())\nprint(*xs, sep=' ', end='')\n"
    exec(compile(program, "<warm-up>", "exec"), {"__name__": "__warm_up__", "print": lambda *a, **k: None})
    io.StringIO().write("")


_warm_up()
# Objects alive now belong to the snapshot: keep the collector from walking them in every run
# (which would touch, and so copy, every page of the image).
gc.collect()
gc.freeze()
