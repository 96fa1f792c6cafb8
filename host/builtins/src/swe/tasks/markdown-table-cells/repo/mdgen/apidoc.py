"""API reference tables generated from modules."""

import inspect
from types import ModuleType

from .blocks import Table
from .inline import code_span


def summary(obj) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.strip().split("\n\n")[0].replace("\n", " ")


def public_functions(module: ModuleType):
    names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
    for name in sorted(names):
        obj = getattr(module, name, None)
        if inspect.isfunction(obj) or inspect.isbuiltin(obj):
            yield name, obj


def signature(name: str, func) -> str:
    try:
        return f"{name}{inspect.signature(func)}"
    except (TypeError, ValueError):
        return f"{name}(...)"


def api_table(module: ModuleType) -> Table:
    rows = [[code_span(signature(n, f)), summary(f)] for n, f in public_functions(module)]
    return Table(["Function", "Summary"], rows)
