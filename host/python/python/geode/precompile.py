"""Compile every built-in component ahead of time, so that no env, tool or grader waits for a
compile on first use (the code sandbox's Python runner with numpy takes about a minute on two
cores; a registry's plugins several seconds).

    python -m geode.precompile            # into the installed package (geode/geode-precompiled)
    python -m geode.precompile --dir DIR  # elsewhere; then set GEODE_PRECOMPILED_DIR=DIR

Run it once after installing geode (in a container image or a Ray worker's setup, at build
time). The runtime searches these files before its cache (``$GEODE_CACHE_DIR``, else
``~/.cache/geode``), where anything else it compiles goes.
"""

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Union

from geode import _geode

__all__ = ["Precompiled", "precompile", "main"]


@dataclass(frozen=True)
class Precompiled:
    """One component's machine code."""

    name: str
    """The component (a plugin's name, ``python-runner``, ``math-grader``...)."""
    path: Path
    """The file holding it."""
    bytes: int
    """Its size."""
    compiled: bool
    """False when it was already there."""
    seconds: float
    """Time spent on it."""


def precompile(dir: Optional[Union[str, Path]] = None) -> List[Precompiled]:
    """Compiles every built-in component into ``dir`` (default: the package's
    ``geode-precompiled`` directory), skipping those already there, and removes what an
    earlier version left there."""
    rows = _geode.precompile(None if dir is None else str(dir))
    return [Precompiled(name, Path(path), size, compiled, secs)
            for name, path, size, compiled, secs in rows]


def main(argv: Optional[List[str]] = None) -> None:
    """The command line: compiles, then prints a line per component."""
    parser = argparse.ArgumentParser(prog="python -m geode.precompile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", help="where to write (default: inside the installed package)")
    args = parser.parse_args(argv)
    done = precompile(args.dir)
    for item in done:
        state = "compiled" if item.compiled else "up to date"
        print(f"{item.name:<24} {state:<10} {item.bytes / 1e6:8.1f} MB {item.seconds:7.2f} s")
    if done:
        total = sum(item.bytes for item in done) / 1e6
        print(f"{len(done)} components in {done[0].path.parent} ({total:.0f} MB)")


if __name__ == "__main__":
    main()
