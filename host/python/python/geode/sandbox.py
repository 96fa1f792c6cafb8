"""Run untrusted Python programs from a reward function: each program runs in a fresh
CPython-in-WebAssembly instance (the sandbox ``tool:python`` and the code envs use) under a fuel
budget, a wall-clock timeout and a memory cap. It sees its stdin and nothing else: no files,
sockets, environment variables or processes, and nothing survives from one run to the next.

    import geode.sandbox

    out = geode.sandbox.run("print(sum(map(int, input().split())))", stdin="2 3\\n", timeout=5)
    assert out.status == "ok" and out.stdout == "5\\n"

    outs = geode.sandbox.run_many([solution] * 64, stdin=test_input, timeout=2)  # parallel, in order

The GIL is released while programs run. Limits left ``None`` take the sandbox's defaults (10 s,
the fuel of 10 s of a tight loop, 256 MiB, 1 MiB of output per stream); explicit ones are
clamped to its ceiling (600 s, 1 GiB). A ``timeout`` without ``fuel`` also sets the fuel to
that many seconds of a tight loop (``timeout * FUEL_PER_SECOND``). Bad arguments raise
``geode.InvalidArgumentError``; a program that fails never raises: how it ended is its
``status``.
"""

import enum
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Iterable, List, Optional, Union

from geode import _geode
from geode.errors import InvalidArgumentError

__all__ = ["FUEL_PER_SECOND", "Outcome", "Request", "Status", "run", "run_many"]

#: Fuel units per second of a tight CPython loop on an idle core.
FUEL_PER_SECOND: int = _geode.FUEL_PER_SECOND

_U64 = 1 << 64


class Status(str, enum.Enum):
    """How a run ended. A ``str``: ``outcome.status == "ok"`` works."""

    OK = "ok"
    """The program ran to completion (its ``exit_code`` may still be non-zero)."""
    RUNTIME_ERROR = "runtime_error"
    """An uncaught exception (the traceback is in ``stderr``) or an interpreter crash."""
    OUT_OF_FUEL = "out_of_fuel"
    """The fuel (deterministic CPU) budget ran out."""
    DEADLINE = "deadline"
    """The wall-clock timeout passed."""
    MEMORY = "memory"
    """The program went over the memory cap."""
    OUTPUT_LIMIT = "output_limit"
    """stdout or stderr went over the output cap."""
    UNSUPPORTED = "unsupported"
    """The sandbox could not run the program at all."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Outcome:
    """The result of one run."""

    status: Status
    """How it ended."""
    stdout: str
    """What it printed (at most the output cap)."""
    stderr: str
    """Its stderr: tracebacks, and a line saying which limit stopped it."""
    exit_code: int
    """``sys.exit``'s code; 0 after a normal end, 1 after an uncaught exception, -1 when a
    limit stopped it."""
    fuel_used: int
    """Fuel units it consumed."""
    elapsed: float
    """Wall-clock seconds, starting the instance included."""

    @property
    def success(self) -> bool:
        """True when it ran to completion with exit code 0."""
        return self.status is Status.OK and self.exit_code == 0

    @property
    def timed_out(self) -> bool:
        """True when its time ran out: the wall-clock timeout or the fuel budget."""
        return self.status in (Status.DEADLINE, Status.OUT_OF_FUEL)


@dataclass(frozen=True)
class Request:
    """One program for :func:`run_many`, with limits of its own; ``None`` fields take
    ``run_many``'s keyword arguments."""

    code: str
    """The program."""
    stdin: Optional[str] = None
    """Its standard input."""
    timeout: Optional[float] = None
    """Wall-clock limit in seconds."""
    memory: Optional[int] = None
    """Memory cap in bytes."""
    fuel: Optional[int] = None
    """Fuel budget (deterministic CPU) in fuel units."""
    seed: Optional[int] = None
    """Seed of the program's randomness (``random``, ``os.urandom``): the same seed replays."""


def run(code: str, stdin: str = "", timeout: Optional[float] = None, memory: Optional[int] = None,
        fuel: Optional[int] = None, seed: int = 0) -> Outcome:
    """Runs ``code`` on ``stdin`` in a fresh sandboxed interpreter and says how it ended.

    ``timeout`` is in seconds, ``memory`` in bytes, ``fuel`` in fuel units; ``seed`` seeds the
    program's randomness."""
    return _outcomes(_geode.sandbox_run([_request(code, stdin, timeout, memory, fuel, seed)]))[0]


def run_many(programs: Iterable[Union[str, Request]], stdin: str = "", timeout: Optional[float] = None,
             memory: Optional[int] = None, fuel: Optional[int] = None, seed: int = 0) -> List[Outcome]:
    """Runs every program, in parallel on the host's threads, and returns the outcomes in the
    same order. A program is its code (run with the keyword arguments) or a :class:`Request`
    (whose ``None`` fields take the keyword arguments)."""
    if isinstance(programs, (str, bytes)):
        raise InvalidArgumentError("run_many takes a list of programs, not one program (use run)")
    defaults = {"stdin": stdin, "timeout": timeout, "memory": memory, "fuel": fuel, "seed": seed}
    requests = []
    for index, program in enumerate(programs):
        if isinstance(program, Request):
            given = {name: value for name, value in vars(program).items() if value is not None}
            fields = {**defaults, **given, "code": program.code}
        else:
            fields = {**defaults, "code": program}
        requests.append(_request(**fields, index=index))
    return _outcomes(_geode.sandbox_run(requests))


def _run_gem(code: str, stdin: str = "", timeout: Optional[float] = None) -> Outcome:
    """Runs ``code`` as GEM's ``run_python`` does: once, then, when it failed on a name that
    "is not defined", again with GEM's ``BASE_IMPORTS`` before it (``geode.utils.sandbox``)."""
    return _outcomes([_geode.sandbox_run_gem(_request(code, stdin, timeout, None, None, 0))])[0]


def _outcomes(rows) -> List[Outcome]:
    return [Outcome(Status(status), *rest) for status, *rest in rows]


def _request(code, stdin, timeout, memory, fuel, seed, index=None) -> tuple:
    """The native request tuple, every argument checked (the native side checks the value of
    ``timeout``)."""
    where = "" if index is None else f" (program {index})"
    return (_text("code", code, where), _text("stdin", stdin, where), _seconds(timeout, where),
            _count("memory", memory, where, 1), _count("fuel", fuel, where, 1), _count("seed", seed, where, 0) or 0)


def _text(name: str, value, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidArgumentError(f"{name} must be a str, not {type(value).__name__}{where}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidArgumentError(f"{name} is not valid text{where}: {error}") from None
    return value


def _seconds(value, where: str) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InvalidArgumentError(f"timeout must be a number of seconds, not {type(value).__name__}{where}")
    try:
        return float(value)
    except OverflowError:
        raise InvalidArgumentError(f"timeout is too large: {value}{where}") from None


def _count(name: str, value, where: str, least: int) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise InvalidArgumentError(f"{name} must be an int, not {type(value).__name__}{where}")
    if not least <= value < _U64:
        raise InvalidArgumentError(f"{name} must be an int in [{least}, 2**64), not {value}{where}")
    return int(value)
