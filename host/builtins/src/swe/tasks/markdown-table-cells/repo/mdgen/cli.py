"""``mdgen api MODULE``: print an API reference."""

import importlib
import sys

from .apidoc import api_table
from .document import Document


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) != 2 or args[0] != "api":
        print("usage: mdgen api MODULE", file=sys.stderr)
        return 2
    module = importlib.import_module(args[1])
    doc = Document().heading(module.__name__, 2).add(api_table(module))
    sys.stdout.write(doc.render())
    return 0
