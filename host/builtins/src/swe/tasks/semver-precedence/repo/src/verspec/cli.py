"""Command line interface: ``verspec sort V...`` and ``verspec check SPEC V...``."""

import sys

from .errors import VerspecError
from .sorting import sort_versions
from .specset import SpecifierSet


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: verspec sort V... | verspec check SPEC V...")
        return 2
    command, rest = args[0], args[1:]
    try:
        if command == "sort":
            for v in sort_versions(rest):
                print(v)
            return 0
        if command == "check" and rest:
            spec = SpecifierSet(rest[0])
            ok = True
            for v in rest[1:]:
                hit = spec.contains(v)
                ok = ok and hit
                print(f"{v}: {'yes' if hit else 'no'}")
            return 0 if ok else 1
    except VerspecError as exc:
        print(f"error: {exc}")
        return 2
    print(f"unknown command: {command}")
    return 2
