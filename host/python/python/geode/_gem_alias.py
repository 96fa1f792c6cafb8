"""``gem`` as another name of ``geode``, so that a GEM script runs after its ``import gem``
became ``import geode as gem``: its other imports (``from gem.wrappers.wrapper_factory import
get_wrapper_fns``, ``from gem.utils.parsing import ...``) then get geode's modules, the same
objects as under their ``geode.`` names (never second copies).

The alias applies while GEM itself is not installed; with GEM installed, ``gem`` stays GEM's.
``GEODE_GEM_ALIAS=force`` applies it anyway, ``GEODE_GEM_ALIAS=off`` never."""

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

ALIAS = "gem"
TARGET = "geode"


class _GemAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``gem`` and ``gem.*`` as the geode modules of the same names."""

    def __init__(self, force: bool):
        self.force = force
        self.replaced_specs = {}

    def find_spec(self, fullname, path=None, target=None):
        if fullname == ALIAS:
            if not self.force and _gem_installed():
                return None
        elif not fullname.startswith(ALIAS + ".") or sys.modules.get(ALIAS) is not sys.modules.get(TARGET):
            return None
        real = importlib.util.find_spec(TARGET + fullname[len(ALIAS):])
        if real is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=real.submodule_search_locations is not None)

    def create_module(self, spec):
        module = importlib.import_module(TARGET + spec.name[len(ALIAS):])
        # The import system sets `__spec__` to the alias's spec next; `exec_module` puts the
        # module's own back.
        self.replaced_specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.replaced_specs.pop(module.__spec__.name, module.__spec__)


def _gem_installed() -> bool:
    """True when a `gem` package with code is importable (a bare directory named `gem` on the
    path, which Python would import as an empty namespace package, does not count)."""
    spec = importlib.machinery.PathFinder.find_spec(ALIAS)
    return spec is not None and spec.origin is not None


def install() -> None:
    """Puts the alias first among the import system's finders (once), unless turned off."""
    mode = os.environ.get("GEODE_GEM_ALIAS", "").lower()
    if mode in ("off", "0", "no") or any(isinstance(f, _GemAlias) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _GemAlias(force=mode in ("force", "1", "yes")))
