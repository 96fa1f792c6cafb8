"""``confkit get FILE SECTION.KEY``."""

import sys

from .errors import ConfigError
from .loader import load


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) != 3 or args[0] != "get" or "." not in args[2]:
        print("usage: confkit get FILE SECTION.KEY", file=sys.stderr)
        return 2
    section, key = args[2].rsplit(".", 1)
    try:
        print(load(args[1]).get(section, key))
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
