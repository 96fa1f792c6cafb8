"""Loading modules into a componentize-py snapshot, shared by geode's CPython components
(`plugins/python-runner`, `plugins/math-grader`).

componentize-py snapshots the interpreter once the component's module is loaded, and the
library files are only reachable during that build: a module not imported then does not exist at
run time. These helpers import a whole package tree, leaving out what fails to import under WASI
(a module whose C part WASI lacks is simply absent, as on a machine without it).
"""

import importlib
import pkgutil
import sys

# Standard-library modules (and package subtrees) every component leaves out: developer tools,
# GUIs and test suites no program needs, and modules that print or open a browser on import.
STDLIB_SKIPPED = frozenset(
    {
        "__hello__",
        "__phello__",
        "_pyrepl",
        "antigravity",
        "ensurepip",
        "idlelib",
        "lib2to3",
        "pydoc_data",
        "test",
        "tests",
        "this",
        "tkinter",
        "turtle",
        "turtledemo",
        "venv",
    }
)


def skipped(name, skip):
    """Whether module `name` is left out: a part of its dotted name is in `skip`, or it is a
    `__main__`."""
    parts = name.split(".")
    return any(part in skip for part in parts) or parts[-1] == "__main__"


def load_tree(name, skip):
    """Imports `name` and every submodule of it that imports, but those `skip` names."""
    try:
        module = importlib.import_module(name)
    except BaseException:  # noqa: BLE001 - a module WASI cannot provide is simply absent
        return
    path = getattr(module, "__path__", None)
    if path is None:
        return
    for info in pkgutil.walk_packages(path, name + ".", onerror=lambda _name: None):
        if skipped(info.name, skip):
            continue
        try:
            importlib.import_module(info.name)
        except BaseException:  # noqa: BLE001
            pass


def load_standard_library(skip):
    """Imports every standard-library module and submodule that imports under WASI, but those
    `skip` names."""
    for name in sorted(sys.stdlib_module_names):
        if not skipped(name, skip):
            load_tree(name, skip)
