"""The helper process geode runs ReasoningGym in (started by ``reasoning_gym_process.py``).

It is started with ``reasoning_gym_pins.pinned_environ`` and pins the library
(``reasoning_gym_pins.pin_library``), so the questions it generates depend only on
``(name, size, seed, idx)``. It reads requests from stdin and answers on its original stdout;
anything ReasoningGym prints goes to stderr. A request is a length-prefixed pickle of
``(op, *args)``:

- ``("create", name, size, seed)``: makes the dataset (its construction errors are raised here);
- ``("item", name, size, seed, idx)``: the dataset's item ``idx``;
- ``("score", name, size, seed, answer, entry)``: ``score_answer(answer=..., entry=...)``.

The answer is ``("ok", value)`` or ``("err", exception, type name, message, traceback)`` (the
exception itself when it pickles). It exits when stdin closes. It imports nothing of geode but
the pins module beside it, loaded by path, so it starts without geode's native extension."""

import collections
import importlib.util
import os
import pickle
import struct
import sys
import traceback
from pathlib import Path

HEADER = struct.Struct("<Q")
#: How many datasets the helper keeps made (a walk past its end makes one per epoch).
KEPT_DATASETS = 32


def _load_pins():
    path = Path(__file__).with_name("reasoning_gym_pins.py")
    spec = importlib.util.spec_from_file_location("geode_reasoning_gym_pins", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_frame(stream):
    """One length-prefixed frame from ``stream``, or None at its end."""
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (length,) = HEADER.unpack(header)
    body = stream.read(length)
    if len(body) < length:
        return None
    return body


def write_frame(stream, payload: bytes) -> None:
    """``payload`` with its length before it, flushed."""
    stream.write(HEADER.pack(len(payload)) + payload)
    stream.flush()


class Datasets:
    """The datasets this helper has made, by ``(name, size, seed)``, most recently used kept."""

    def __init__(self, reasoning_gym):
        self._rg = reasoning_gym
        self._made = collections.OrderedDict()

    def get(self, name, size, seed):
        key = (name, size, seed)
        dataset = self._made.get(key)
        if dataset is None:
            dataset = self._rg.create_dataset(name, size=size, seed=seed)
            self._made[key] = dataset
            while len(self._made) > KEPT_DATASETS:
                self._made.popitem(last=False)
        self._made.move_to_end(key)
        return dataset

    def handle(self, op, args):
        if op == "create":
            self.get(*args)
            return None
        if op == "item":
            name, size, seed, idx = args
            return self.get(name, size, seed)[idx]
        if op == "score":
            name, size, seed, answer, entry = args
            return self.get(name, size, seed).score_answer(answer=answer, entry=entry)
        raise ValueError(f"unknown request {op!r}")


def _error_reply(error: BaseException) -> bytes:
    trace = "".join(traceback.format_exception(error))
    try:
        return pickle.dumps(("err", error, type(error).__name__, str(error), trace))
    except Exception:  # an exception that does not pickle travels as its name and text
        return pickle.dumps(("err", None, type(error).__name__, str(error), trace))


def main() -> None:
    # Python put this file's directory first on the path, where geode's own reasoning_gym.py is.
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # ReasoningGym's prints (codeio's snippets print) must not reach the replies
    requests = sys.stdin.buffer
    pins = _load_pins()
    import reasoning_gym

    pins.pin_library(reasoning_gym)
    datasets = Datasets(reasoning_gym)
    while (frame := read_frame(requests)) is not None:
        try:
            op, *args = pickle.loads(frame)
            reply = pickle.dumps(("ok", datasets.handle(op, args)))
        except Exception as error:
            reply = _error_reply(error)
        write_frame(replies, reply)


if __name__ == "__main__":
    main()
