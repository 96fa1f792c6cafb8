"""The helper process every ``rg:*`` env of this Python process generates and scores in.

ReasoningGym run in the trainer's process poses questions that depend on that process and
machine (``reasoning_gym_pins.py`` lists how). geode runs it in one helper process started under
pinned conditions instead, shared by every ``rg:*`` env of the process, so a question depends only
on ``(name, size, seed, idx)``: the same on every node of a trainer, in every run.

Each call is bounded: a helper that does not answer in time is killed and the call raises
``DeadlineExceededError``; a helper that dies raises ``EnvTrappedError``; the next call starts a
new one. A process forked after the helper started gets its own helper on first use."""

import atexit
import os
import pickle
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Optional

from geode.envs import reasoning_gym_pins as pins
from geode.envs.reasoning_gym_worker import HEADER
from geode.errors import DeadlineExceededError, EnvTrappedError

WORKER = Path(__file__).with_name("reasoning_gym_worker.py")


class ReasoningGymProcess:
    """A client of one helper process (started on first use, restarted after a failure)."""

    _shared: Optional["ReasoningGymProcess"] = None
    _shared_lock = threading.Lock()

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: Optional[subprocess.Popen] = None
        self._pid = os.getpid()

    @classmethod
    def shared(cls) -> "ReasoningGymProcess":
        """The process-wide client every ``rg:*`` env uses."""
        with cls._shared_lock:
            if cls._shared is None:
                cls._shared = cls()
                atexit.register(cls._shared.close)
            return cls._shared

    def call(self, timeout: float, op: str, *args: Any) -> Any:
        """Sends ``(op, *args)`` and returns the helper's answer, or raises what it raised."""
        with self._lock:
            proc = self._running()
            try:
                payload = pickle.dumps((op, *args))
                proc.stdin.write(HEADER.pack(len(payload)) + payload)
                proc.stdin.flush()
                reply = self._read_reply(proc, timeout, op)
            except (BrokenPipeError, EOFError) as error:
                self._discard()
                raise EnvTrappedError(self._died(proc, op)) from error
        status, value, *rest = pickle.loads(reply)
        if status == "ok":
            return value
        type_name, message, trace = rest
        error = value if isinstance(value, BaseException) else RuntimeError(f"{type_name}: {message}")
        error.add_note(f"raised in geode's ReasoningGym helper process:\n{trace}")
        raise error

    def close(self) -> None:
        """Stops the helper (it exits when its stdin closes; killed if it does not)."""
        with self._lock:
            self._discard()

    def _running(self) -> subprocess.Popen:
        if self._pid != os.getpid():  # forked: the helper and its pipes are the parent's
            self._proc, self._pid = None, os.getpid()
        if self._proc is None or self._proc.poll() is not None:
            self._proc = self._start()
        return self._proc

    def _start(self) -> subprocess.Popen:
        env = pins.pinned_environ(os.environ)
        # The helper imports the same ReasoningGym as this process, wherever it was found.
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        return subprocess.Popen(
            [sys.executable, str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=pins.PINNED_CWD,
        )

    def _read_reply(self, proc: subprocess.Popen, timeout: float, op: str) -> bytes:
        deadline = time.monotonic() + timeout
        header = self._read_exact(proc, HEADER.size, deadline, timeout, op)
        (length,) = HEADER.unpack(header)
        return self._read_exact(proc, length, deadline, timeout, op)

    def _read_exact(self, proc, count: int, deadline: float, timeout: float, op: str) -> bytes:
        fd = proc.stdout.fileno()
        chunks, missing = [], count
        while missing:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self._discard(kill=True)
                raise DeadlineExceededError(
                    f"rg: ReasoningGym's {op} took longer than {timeout:g} s; its helper process was stopped"
                )
            chunk = os.read(fd, missing)
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            missing -= len(chunk)
        return b"".join(chunks)

    def _died(self, proc: subprocess.Popen, op: str) -> str:
        code = proc.poll()
        return f"rg: ReasoningGym's helper process died during {op} (exit code {code}); the next call starts a new one"

    def _discard(self, kill: bool = False) -> None:
        proc, self._proc = self._proc, None
        if proc is None or self._pid != os.getpid():
            return
        if kill:
            proc.kill()
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
