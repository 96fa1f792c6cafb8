"""Runs in an episode's workspace, for geode's agentic-coding environments.

Each episode has a private file tree that this interpreter sees at `/workspace` (with a scratch
`/tmp`). The host sends the runner one line of code calling one of these functions, e.g.
`import geode_workspace; geode_workspace.run_pytest(["-q", "tests"])`:

- `run_file(path, args=())`: as `python path args...` run in /workspace.
- `run_code(code, args=())`: as `python -c code args...` run in /workspace.
- `run_pytest(args=())`: as `python -m pytest args...` run in /workspace; exits with pytest's
  exit code.
- `grade(node_ids, report_path, extra_args=())`: the reward harness (see its docstring).

None of them writes bytecode, and none reads bytecode from the tree (`sys.pycache_prefix` points
where nothing can exist): a stale or planted `.pyc` is never run instead of its source. This
module is imported at build time, so pytest, and the references `grade` keeps, are in the
snapshot before any code of a workspace runs.
"""

import builtins
import gc
import importlib.machinery
import io
import itertools
import operator
import os
import runpy
import sys
import types
import zipfile
import zipimport

import _pytest.assertion.rewrite
import _pytest.cacheprovider
import _pytest.config
import _pytest.debugging
import _pytest.fixtures
import _pytest.legacypath
import _pytest.logging
import _pytest.main
import _pytest.nodes
import _pytest.python
import _pytest.terminal
import _pytest.tmpdir
import pytest

WORKSPACE = "/workspace"
# A directory that cannot exist (no preopen holds it): bytecode is neither read from nor written
# to the tree.
_NO_PYCACHE = "/.geode-no-pycache"
# pytest's options for this sandbox: no cache directory in the tree, no faulthandler (WASI has no
# `dup`), and capture by replacing sys.stdout/sys.stderr (file descriptors cannot be redirected).
# Given first, so that a capture option of the caller's wins.
_PYTEST_DEFAULTS = ("-p", "no:cacheprovider", "-p", "no:faulthandler", "--capture=sys")


def _no_user_id():
    """pytest's `get_user_id` under WASI, which has no user ids (`os.getuid` is absent): None,
    as on Windows, so `tmp_path` skips its ownership check of the temporary root."""
    return None


if not hasattr(os, "getuid"):
    _pytest.tmpdir.get_user_id = _no_user_id


class _LogFileHandler(_pytest.logging._FileHandler):
    """pytest's log-file handler. Without a `log_file` setting pytest logs to `os.devnull`,
    which WASI does not have: that file is then never opened and what is sent to it dropped,
    which is all /dev/null would do."""

    def __init__(self, filename, mode="a", encoding=None, delay=False, errors=None):
        self._geode_null = filename == os.devnull
        super().__init__(filename, mode, encoding, delay=delay or self._geode_null, errors=errors)

    def emit(self, record):
        if not self._geode_null:
            super().emit(record)


_pytest.logging._FileHandler = _LogFileHandler


def _enter(argv, path0):
    """Sets up a run as CPython's command line does: cwd /workspace, `sys.argv`, `sys.path[0]`,
    and no bytecode written or read."""
    os.chdir(WORKSPACE)
    sys.argv = list(argv)
    sys.path.insert(0, path0)
    sys.dont_write_bytecode = True
    sys.pycache_prefix = _NO_PYCACHE


def run_file(path, args=()):
    """Runs `path` (relative to /workspace, or absolute) as `python path args...` would: as
    `__main__` with the absolute path as `__file__`, `sys.argv = [path, *args]` and the file's
    directory first on `sys.path` (a directory or zip file runs its `__main__.py`, through
    runpy). An uncaught exception propagates (the runner prints it as CPython does);
    `sys.exit` ends the run with its code."""
    os.chdir(WORKSPACE)
    full = os.path.abspath(path)
    _enter([path, *args], os.path.dirname(full))
    if not os.path.exists(full):
        sys.stderr.write(f"python: can't open file {full!r}: [Errno 2] No such file or directory\n")
        raise SystemExit(2)
    if os.path.isdir(full) or zipfile.is_zipfile(full):
        sys.path[0] = full
        runpy.run_path(full, run_name="__main__")
        return
    with io.open_code(full) as handle:
        source = handle.read()
    main = types.ModuleType("__main__")
    main.__dict__.update(
        __builtins__=builtins,
        __file__=full,
        __cached__=None,
        __loader__=importlib.machinery.SourceFileLoader("__main__", full),
    )
    sys.modules["__main__"] = main
    exec(compile(source, full, "exec"), main.__dict__)


def run_code(code, args=()):
    """Runs the string `code` as `python -c code args...` would: in a fresh `__main__` whose
    file name is `<string>`, with `sys.argv = ["-c", *args]` and the current directory
    (/workspace) first on `sys.path`."""
    _enter(["-c", *args], "")
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = main
    exec(compile(code, "<string>", "exec"), main.__dict__)


def run_pytest(args=()):
    """Runs pytest as `python -m pytest args...` in /workspace would, with the options this
    sandbox needs first (`-p no:cacheprovider -p no:faulthandler --capture=sys`; a capture
    option in `args` overrides the last), then exits with pytest's exit code."""
    _enter(["pytest", *args], WORKSPACE)
    raise SystemExit(int(pytest.main([*_PYTEST_DEFAULTS, *args])))


# ---------------------------------------------------------------------------------------------
# grade: the reward harness.

# The outcomes a report gives a node id.
PASSED, FAILED, ERROR, SKIPPED = "passed", "failed", "error", "skipped"
XFAILED, XPASSED, MISSING = "xfailed", "xpassed", "missing"

# Modules whose every attribute, and the namespace of every class defined in them, `grade`
# fingerprints: pytest, pluggy, unittest and builtins; what pytest loads test modules through
# (the import system, `ast`, `pathlib`, `io`, `os`); and what runs after the report is written
# (this module, the runner's `app` and its WIT bindings).
_GUARDED_TREES = (
    "pytest",
    "_pytest",
    "pluggy",
    "unittest",
    "importlib",
    "pathlib",
    "wit_world",
    "componentize_py_runtime",
    "componentize_py_types",
    "componentize_py_async_support",
)
_GUARDED_MODULES = frozenset(
    {
        "builtins",
        "app",
        __name__,
        "_frozen_importlib",
        "_frozen_importlib_external",
        "_imp",
        "ast",
        "_ast",
        "io",
        "_io",
        "os",
        "posix",
    }
)
# Subpackages of the guarded trees that keep caches as module attributes and that nothing
# pytest runs through uses: left out.
_UNGUARDED = ("importlib.metadata", "importlib.resources", "_pytest.pytester")
# Names in a guarded namespace that change without anyone patching anything: annotations
# materialised on first access, the warnings registry, copyreg's slot-name cache, the flag
# pytest sets on item classes once it warned about their inheritance, and (in builtins only) the
# last value the interactive display hook showed (doctests set it).
_VOLATILE = frozenset(
    {
        "__annotations__",
        "__annotations_cache__",
        "__annotate__",
        "__annotate_func__",
        "__warningregistry__",
        "__slotnames__",
        "_pytest_diamond_inheritance_warning_shown",
    }
)
_VOLATILE_BUILTINS = frozenset({"_"})
# What pytest's `legacypath` plugin sets on its own classes for a session (and undoes after):
# allowed when the value is made of that module's functions.
_LEGACYPATH_PATCHES = frozenset(
    {
        (_pytest.cacheprovider.Cache, "makedir"),
        (_pytest.fixtures.FixtureRequest, "fspath"),
        (_pytest.config.Config, "invocation_dir"),
        (_pytest.config.Config, "rootdir"),
        (_pytest.config.Config, "inifile"),
        (_pytest.config.Config, "_getini_unknown_type"),
        (_pytest.main.Session, "startdir"),
        (_pytest.nodes.Node, "fspath"),
        (_pytest.terminal.TerminalReporter, "startdir"),
    }
)

_is = operator.is_
_chain = itertools.chain.from_iterable
_values = operator.methodcaller("values")
_code_of = operator.attrgetter("__code__")
_defaults_of = operator.attrgetter("__defaults__")
_kwdefaults_of = operator.attrgetter("__kwdefaults__")
_FunctionType = types.FunctionType
_ModuleType = types.ModuleType
_getattr = getattr
_isinstance = isinstance
_len = len
_list = list
_sorted = sorted
_open = builtins.open
_modules = sys.modules
_sys_dict = sys.__dict__
_os_dict = os.__dict__
_builtins_dict = builtins.__dict__
_gettrace = sys.gettrace
_getprofile = sys.getprofile
_monitoring_tool = sys.monitoring.get_tool if hasattr(sys, "monitoring") else None
_meta_path = sys.meta_path
_path_hooks = sys.path_hooks
_gc_callbacks = gc.callbacks
_FINDER_TYPES = (importlib.machinery.FileFinder, zipimport.zipimporter)
_REWRITE_HOOK = _pytest.assertion.rewrite.AssertionRewritingHook
_FUNCTION_ITEM = _pytest.python.Function
_mro_of = operator.attrgetter("__mro__")
_setattr = setattr
_restore = object()  # a marker: absent from a namespace


def _try(function, *args):
    """Calls `function(*args)`, ignoring an exception (a built-in type refuses attributes)."""
    try:
        function(*args)
    except Exception:  # noqa: BLE001
        pass


def _set_monitoring(tools):
    for tool, name in enumerate(tools):
        if _monitoring_tool(tool) != name:
            _try(sys.monitoring.free_tool_id, tool)
            if name is not None:
                _try(sys.monitoring.use_tool_id, tool, name)


def _replace_list(target):
    def put_back(saved):
        target[:] = saved

    return put_back


# How `_Fingerprint.restore` puts back each of the interpreter hooks `_Fingerprint._hooks` lists.
_HOOK_RESTORERS = {
    "sys.settrace": lambda saved: _sys_dict.__setitem__("settrace", saved),
    "sys.setprofile": lambda saved: _sys_dict.__setitem__("setprofile", saved),
    "sys.gettrace()": sys.settrace,
    "sys.getprofile()": sys.setprofile,
    "sys.excepthook": lambda saved: _sys_dict.__setitem__("excepthook", saved),
    "sys.exit": lambda saved: _sys_dict.__setitem__("exit", saved),
    "sys.modules": lambda saved: _sys_dict.__setitem__("modules", saved),
    "sys.meta_path": lambda saved: _sys_dict.__setitem__("meta_path", saved),
    "sys.path_hooks": lambda saved: _sys_dict.__setitem__("path_hooks", saved),
    "sys.path_importer_cache": lambda saved: _sys_dict.__setitem__("path_importer_cache", saved),
    "os._exit": lambda saved: _os_dict.__setitem__("_exit", saved),
    "print": lambda saved: _builtins_dict.__setitem__("print", saved),
    "gc.callbacks": _replace_list(_gc_callbacks),
    "sys.path_hooks entries": _replace_list(_path_hooks),
    "sys.monitoring": _set_monitoring,
}
_STREAMS = ("stdin", "stdout", "stderr", "__stdin__", "__stdout__", "__stderr__")
# What `_audit_hook` saw while grading: changes to the code of fingerprinted functions, and
# attempts to add audit hooks.
_AUDIT_FINDINGS = []
# The ids of the fingerprinted functions, which `_audit_hook` watches.
_WATCHED = set()
_FUNCTION_PARTS = frozenset({"__code__", "__defaults__", "__kwdefaults__"})
# What `grade` took out of the interpreter when it restored it: kept, never freed.
_KEPT = []


def _audit_hook(event, args):
    """The audit hook `grade` installs once it has its fingerprint, before any workspace code
    runs (audit hooks can be neither listed nor removed). It refuses every later audit hook
    (CPython suppresses the RuntimeError and does not add it), and notes each write to the
    `__code__`, `__defaults__` or `__kwdefaults__` of a fingerprinted function (CPython audits
    those writes; reading them is audited too, so the guard's per-test checks do not read
    them)."""
    if event == "object.__setattr__":
        if args[1] in _FUNCTION_PARTS and id(args[0]) in _WATCHED:
            _AUDIT_FINDINGS.append(f"{_qualified(args[0], '?')}.{args[1]} replaced")
    elif event == "sys.addaudithook":
        _AUDIT_FINDINGS.append("sys.addaudithook called (refused)")
        raise RuntimeError("audit hooks are refused while grading")


def _guarded(name):
    if name in _GUARDED_MODULES:
        return True
    if any(name == u or name.startswith(u + ".") for u in _UNGUARDED):
        return False
    return any(name == t or name.startswith(t + ".") for t in _GUARDED_TREES)


def _functions_in(value):
    """The functions whose code runs when `value` (a namespace entry) is called or read:
    itself, what a staticmethod, classmethod, property or a `functools` wrapper
    (cached_property, partial, partialmethod) holds, and what `functools.wraps` wrappers wrap."""
    found = []
    pending = [value]
    while pending:
        item = pending.pop()
        if _isinstance(item, _FunctionType):
            found.append(item)
            wrapped = item.__dict__.get("__wrapped__")
            if wrapped is not None:
                pending.append(wrapped)
        elif _isinstance(item, (staticmethod, classmethod)):
            pending.append(item.__func__)
        elif _isinstance(item, property):
            pending.extend(f for f in (item.fget, item.fset, item.fdel) if f is not None)
        elif type(item).__module__ == "functools" and not _isinstance(item, type):
            inner = _getattr(item, "func", None)
            if inner is not None:
                pending.append(inner)
    return found


def _qualified(value, label):
    """The name a change to `value` is reported under: where it was defined (module and
    qualified name) when it says so, else `label`, where it was found."""
    module, name = _getattr(value, "__module__", None), _getattr(value, "__qualname__", None)
    if _isinstance(module, str) and _isinstance(name, str) and "<" not in name:
        return f"{module}.{name}"
    return label


def _legacypath_patch(owner, key, value):
    """Whether `owner.key = value` is what pytest's legacypath plugin sets."""
    if (owner, key) not in _LEGACYPATH_PATCHES:
        return False
    functions = _functions_in(value)
    namespace = _pytest.legacypath.__dict__
    return bool(functions) and all(namespace.get(f.__name__) is f for f in functions)


class _Fingerprint:
    """What the guarded modules hold, taken before any code of the workspace runs, and
    compared with what they hold later.

    Namespaces (module and class dictionaries, and the attribute dictionaries of functions) are
    compared entry by entry by identity; functions also by the identity of their `__code__`,
    `__defaults__` and `__kwdefaults__`; classes by their MRO (reassigning `__bases__` changes
    it); modules by their class. The comparisons run in C loops over flat lists.
    """

    def __init__(self):
        self.module_names = _sorted(name for name in _list(_modules) if _guarded(name))
        self.module_objects = [_modules[name] for name in self.module_names]
        self.module_types = _list(map(type, self.module_objects))
        labels, spaces = [], []
        classes, functions = {}, {}

        def visit(label, value):
            for function in _functions_in(value):
                functions.setdefault(id(function), (_qualified(function, label), function))
            if (
                _isinstance(value, type)
                and id(value) not in classes
                and _guarded(_getattr(value, "__module__", None) or "")
            ):
                label = _qualified(value, label)
                classes[id(value)] = (label, value)
                for key, inner in _list(value.__dict__.items()):
                    visit(f"{label}.{key}", inner)

        for name, module in zip(self.module_names, self.module_objects):
            namespace = _getattr(module, "__dict__", None)
            if namespace is not None:
                labels.append(name)
                spaces.append(namespace)
                for key, value in _list(namespace.items()):
                    visit(f"{name}.{key}", value)
        owners = [None] * _len(spaces)
        for label, cls in classes.values():
            labels.append(label)
            spaces.append(cls.__dict__)
            owners.append(cls)
        for label, function in functions.values():
            if function.__dict__:
                labels.append(label + ".__dict__")
                spaces.append(function.__dict__)
                owners.append(None)
        self.owners = owners
        self.class_labels = [label for label, _ in classes.values()]
        self.classes = [cls for _, cls in classes.values()]
        self.mros = _list(map(_mro_of, self.classes))
        self.bases = [cls.__bases__ for cls in self.classes]
        self.class_ids = frozenset(map(id, self.classes))
        self.function_labels = [label for label, _ in functions.values()]
        self.functions = [function for _, function in functions.values()]
        self.function_parts = [
            (name, getter, _list(map(getter, self.functions)))
            for name, getter in (
                ("__code__", _code_of),
                ("__defaults__", _defaults_of),
                ("__kwdefaults__", _kwdefaults_of),
            )
        ]
        self.labels = labels
        self.spaces = spaces
        # (class, name) -> the values pytest may set there for this session (`grade` fills it).
        self.session_values = {}
        self.saved = [dict(space) for space in spaces]
        self._save_flat()
        self.hooks = self._hooks()

    def _save_flat(self):
        """Takes the flat lists the fast check compares with: the namespaces as they are now
        (the slow check compares with `saved`, as they were at the start)."""
        self.keys = _list(_chain(self.spaces))
        self.values = _list(_chain(map(_values, self.spaces)))

    @staticmethod
    def _hooks():
        """The interpreter hooks that see or steer every test: tracing, profiling, exception
        and exit functions, the import system's entry points, collector callbacks, monitoring."""
        hooks = [
            ("sys.settrace", _sys_dict.get("settrace")),
            ("sys.setprofile", _sys_dict.get("setprofile")),
            ("sys.gettrace()", _gettrace()),
            ("sys.getprofile()", _getprofile()),
            ("sys.excepthook", _sys_dict.get("excepthook")),
            ("sys.exit", _sys_dict.get("exit")),
            ("sys.modules", _sys_dict.get("modules")),
            ("sys.meta_path", _sys_dict.get("meta_path")),
            ("sys.path_hooks", _sys_dict.get("path_hooks")),
            ("sys.path_importer_cache", _sys_dict.get("path_importer_cache")),
            ("os._exit", _os_dict.get("_exit")),
            ("print", _builtins_dict.get("print")),
        ]
        # Contents, compared by identity element by element.
        hooks.append(("gc.callbacks", tuple(_gc_callbacks)))
        hooks.append(("sys.path_hooks entries", tuple(_path_hooks)))
        if _monitoring_tool is not None:
            hooks.append(("sys.monitoring", tuple(map(_monitoring_tool, range(6)))))
        return hooks

    def changes(self, functions=True):
        """What differs from the fingerprint, as sentences (empty when nothing does). With
        `functions` false, the functions' code and defaults are not compared (the audit hook
        watches writes to them)."""
        found = []
        live_modules = _list(map(_modules.get, self.module_names))
        if not all(map(_is, live_modules, self.module_objects)):
            for name, live, saved in zip(self.module_names, live_modules, self.module_objects):
                if live is None:
                    found.append(f"sys.modules[{name!r}] removed")
                elif live is not saved:
                    found.append(f"sys.modules[{name!r}] replaced")
        if not all(map(_is, map(type, self.module_objects), self.module_types)):
            for name, module, saved in zip(self.module_names, self.module_objects, self.module_types):
                if type(module) is not saved:
                    found.append(f"{name}.__class__ replaced")
        if _list(_chain(self.spaces)) != self.keys or not all(
            map(_is, _chain(map(_values, self.spaces)), self.values)
        ):
            before = _len(found)
            for label, owner, space, saved in zip(self.labels, self.owners, self.spaces, self.saved):
                found.extend(self._space_changes(label, owner, space, saved))
            if _len(found) == before:
                self._save_flat()  # only allowed changes: the next check is fast again
        if not all(map(_is, map(_mro_of, self.classes), self.mros)):
            for label, cls, mro in zip(self.class_labels, self.classes, self.mros):
                if cls.__mro__ is not mro:
                    found.append(f"{label}.__bases__ replaced")
        for name, getter, saved in self.function_parts if functions else ():
            if not all(map(_is, map(getter, self.functions), saved)):
                for label, function, value in zip(self.function_labels, self.functions, saved):
                    if getter(function) is not value:
                        found.append(f"{label}.{name} replaced")
        for (label, saved), (_, live) in zip(self.hooks, self._hooks()):
            if _isinstance(saved, tuple):
                if _len(live) != _len(saved) or not all(map(_is, live, saved)):
                    found.append(f"{label} changed")
            elif live is not saved:
                found.append(f"{label} replaced")
        return found

    def restore(self, keep, functions):
        """Puts back everything fingerprinted that changed (but volatile names), so that no
        patched code runs once the report is written. What is taken out is appended to `keep`:
        nothing is freed, so no finalizer of workspace code runs."""
        for name, module, saved in zip(self.module_names, self.module_objects, self.module_types):
            if _modules.get(name) is not module:
                keep.append(_modules.get(name))
                _modules[name] = module
            if type(module) is not saved:
                keep.append(type(module))
                _try(_setattr, module, "__class__", saved)
        for label, owner, space, saved in zip(self.labels, self.owners, self.spaces, self.saved):
            if _len(space) == _len(saved) and all(map(_is, _values(space), _values(saved))):
                if _list(space) == _list(saved):
                    continue
            volatile = _VOLATILE | _VOLATILE_BUILTINS if label == "builtins" else _VOLATILE
            for key in _list(space):
                if key not in saved and key not in volatile and not self._allowed(owner, key, space[key]):
                    keep.append(space[key])
                    if owner is None:
                        del space[key]
                    else:
                        _try(type.__delattr__, owner, key)
            for key, value in saved.items():
                if key in volatile or space.get(key, _restore) is value:
                    continue
                if key in space and self._allowed(owner, key, space[key]):
                    continue
                keep.append(space.get(key))
                if owner is None:
                    space[key] = value
                else:
                    _try(type.__setattr__, owner, key, value)
        for cls, mro, bases in zip(self.classes, self.mros, self.bases):
            if cls.__mro__ is not mro:
                _try(_setattr, cls, "__bases__", bases)
        for name, getter, saved in self.function_parts if functions else ():
            for function, value in zip(self.functions, saved):
                if getter(function) is not value:
                    keep.append(getter(function))
                    _try(_setattr, function, name, value)
        for (label, saved), (_, live) in zip(self.hooks, self._hooks()):
            if live is saved or (_isinstance(saved, tuple) and _len(live) == _len(saved) and all(map(_is, live, saved))):
                continue
            keep.append(live)
            _try(_HOOK_RESTORERS[label], saved)

    def _space_changes(self, label, owner, space, saved):
        volatile = _VOLATILE | _VOLATILE_BUILTINS if label == "builtins" else _VOLATILE
        found = []
        for key, value in saved.items():
            if key in volatile:
                continue
            if key not in space:
                found.append(f"{label}.{key} deleted")
            elif space[key] is not value and not self._allowed(owner, key, space[key]):
                found.append(f"{label}.{key} replaced")
        for key in space:
            if key not in saved and key not in volatile and not self._allowed(owner, key, space[key]):
                found.append(f"{label}.{key} added")
        return found

    def _allowed(self, owner, key, value):
        """Whether `owner.key = value` is what pytest itself sets for a session: the legacypath
        plugin's properties, or the debugging plugin's references to the session's config."""
        if owner is None:
            return False
        if any(value is allowed for allowed in self.session_values.get((owner, key), ())):
            return True
        return _legacypath_patch(owner, key, value)


def _import_finders_changes(meta_path, importer_cache):
    """Finders in `sys.meta_path` other than those present at the start and pytest's
    assertion-rewriting hook, and `sys.path_importer_cache` entries that are neither those
    present at the start nor the standard finders."""
    found = []
    for finder in _list(_meta_path):
        if not any(finder is saved for saved in meta_path) and type(finder) is not _REWRITE_HOOK:
            found.append(f"sys.meta_path: {type(finder).__qualname__} inserted")
    for path, finder in _list(_sys_dict["path_importer_cache"].items()):
        if finder is None or type(finder) in _FINDER_TYPES or importer_cache.get(path) is finder:
            continue
        found.append(f"sys.path_importer_cache[{path!r}]: {type(finder).__qualname__} inserted")
    return found


def _json_string(text):
    """`text` as a JSON string, ASCII only (no dependence on the json module, which workspace
    code could patch)."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char == '"' or char == "\\":
            out.append("\\" + char)
        elif 0x20 <= code < 0x7F:
            out.append(char)
        elif code < 0x10000:
            out.append("\\u%04x" % code)
        else:
            code -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
    out.append('"')
    return "".join(out)


def _is_under(node_id, collector_id):
    """Whether the test `node_id` lies under the collector `collector_id` (a directory, file or
    class node id; "" is the session)."""
    if collector_id == "" or node_id == collector_id:
        return True
    return node_id.startswith(collector_id + "::") or node_id.startswith(collector_id + "/")


class _Grader:
    """The pytest plugin `grade` registers: records each requested test's outcome and runs the
    integrity guard after collection and after each test's teardown. It is created, and takes
    its fingerprints, before any workspace code runs, and its checks use only what it and this
    module captured then."""

    def __init__(self, node_ids, files, fingerprint):
        self.node_ids = node_ids
        self.files = files  # path -> bytes (None: absent), read before any workspace code ran
        self.fingerprint = fingerprint
        self.meta_path = tuple(_meta_path)
        self.importer_cache = dict(_sys_dict["path_importer_cache"])
        self.streams = [(name, _sys_dict.get(name)) for name in _STREAMS]
        self.stream_dicts = [dict(_getattr(stream, "__dict__", {})) for _, stream in self.streams]
        self.outcomes = {}
        self.pending = {}
        self.collected = 0
        self.tampered = None
        self.items = {}
        self.pluginmanager = None
        self.config = None
        self.hook_state = None

    # -- the guard --------------------------------------------------------------------------

    def _changes(self, functions):
        found = self.fingerprint.changes(functions)
        found.extend(_AUDIT_FINDINGS)
        found.extend(_import_finders_changes(self.meta_path, self.importer_cache))
        found.extend(self._plugin_changes())
        for path, content in self.files.items():
            try:
                with _open(path, "rb") as handle:
                    now = handle.read()
            except OSError:
                now = None
            if now != content:
                found.append(f"{os.path.relpath(path, WORKSPACE)} modified")
        return found

    def stream_changes(self):
        """The standard streams replaced, or given attributes of their own (pytest's capture
        puts them back when the session ends, so this holds once pytest returned)."""
        found = []
        for (name, stream), saved in zip(self.streams, self.stream_dicts):
            if _sys_dict.get(name) is not stream:
                found.append(f"sys.{name} replaced")
            elif dict(_getattr(stream, "__dict__", {})) != saved:
                found.append(f"sys.{name} attributes changed")
        return found

    def lock_down(self):
        """Before the report is written: no cyclic garbage collection (so no finalizer runs),
        and everything fingerprinted, and the standard streams, as they were at the start."""
        gc.disable()
        # Functions' code only when something wrote to it: each read is an audit event.
        self.fingerprint.restore(_KEPT, functions=bool(_AUDIT_FINDINGS) or self.tampered is not None)
        for (name, stream), saved in zip(self.streams, self.stream_dicts):
            _KEPT.append(_sys_dict.get(name))
            _sys_dict[name] = stream
            namespace = _getattr(stream, "__dict__", None)
            if namespace is not None and namespace != saved:
                _KEPT.append(dict(namespace))
                namespace.clear()
                namespace.update(saved)
        _KEPT.append(self)

    def verify(self, when, extra=(), functions=False):
        """Runs the guard unless it already failed; on a change records what changed (and
        discards the outcomes not yet counted). Returns whether outcomes may still count.
        Functions' code is compared only when `functions` is true (once pytest returned):
        otherwise `_audit_hook` watches writes to it, and reading it would cost an audit event
        per function."""
        if self.tampered is not None:
            return False
        try:
            found = _list(dict.fromkeys(self._changes(functions) + _list(extra)))
        except BaseException as error:  # noqa: BLE001 - a guard that cannot run was defeated
            found = [f"the integrity check raised {type(error).__name__}"]
        if found:
            shown = "; ".join(found[:8])
            if _len(found) > 8:
                shown += f"; and {_len(found) - 8} more"
            self.tampered = f"{shown} ({when})"
            self.pending = {}
            return False
        return True

    def _plugin_allowed(self, plugin):
        """Whether a registered plugin is one of pytest's own (a module or class of `_pytest`
        that was there at the start, or an instance of such a class), a conftest pytest loaded,
        or this grader."""
        if plugin is None or plugin is self:
            return True
        fingerprint = self.fingerprint
        if _isinstance(plugin, _ModuleType):
            if any(plugin is module for module in fingerprint.module_objects):
                return (plugin.__name__ or "").startswith("_pytest.")
            conftests = _getattr(self.pluginmanager, "_conftest_plugins", ())
            return any(plugin is conftest for conftest in conftests)
        owner = plugin if _isinstance(plugin, type) else type(plugin)  # pytest registers classes too
        return id(owner) in fingerprint.class_ids and owner.__module__.startswith("_pytest.")

    def _hook_state(self):
        pm = self.pluginmanager
        state = {
            "the plugin manager's hook relay": _getattr(pm, "hook", None),
            "the plugin manager's hook executor": _getattr(pm, "_inner_hookexec", None),
            "config.hook": _getattr(self.config, "hook", None),
        }
        for name, caller in _list(vars(pm.hook).items()):
            impls = tuple(caller.get_hookimpls())
            state[name] = (
                caller,
                _getattr(caller, "_hookexec", None),
                impls,
                tuple(impl.function for impl in impls),
                tuple(impl.plugin for impl in impls),
            )
        return state

    def _new_impl_allowed(self, name, impl):
        """A hook implementation registered since the last check is pytest registering a
        plugin of its own or a conftest: its plugin is allowed and its function is the
        plugin's attribute of that name."""
        if not self._plugin_allowed(impl.plugin):
            return False
        attribute = _getattr(impl.plugin, _getattr(impl.function, "__name__", name), None)
        return attribute is impl.function or _getattr(attribute, "__func__", None) is _getattr(
            impl.function, "__func__", impl.function
        )

    def _plugin_changes(self):
        if self.hook_state is None:
            return []
        found = []
        state = self._hook_state()
        for name, before in self.hook_state.items():
            now = state.get(name)
            if not _isinstance(before, tuple):
                if now is not before:
                    found.append(f"{name} replaced")
                continue
            if now is None or now[0] is not before[0] or now[1] is not before[1]:
                found.append(f"hook {name} replaced")
                continue
            if now[2:] == before[2:] and all(map(_is, now[3], before[3])):
                continue
            old = {id(impl): (impl, function, plugin) for impl, function, plugin in zip(*before[2:])}
            for impl, function, plugin in zip(*now[2:]):
                saved = old.pop(id(impl), None)
                if saved is None:
                    if not self._new_impl_allowed(name, impl):
                        found.append(f"hook {name}: an implementation of {type(plugin).__qualname__} added")
                elif function is not saved[1] or plugin is not saved[2]:
                    found.append(f"hook {name}: an implementation replaced")
            if old:
                found.append(f"hook {name}: an implementation removed")
        if not found:
            self.hook_state = state  # conftests and plugins pytest registered since then
        return found

    @staticmethod
    def _item_function(item):
        cls = _getattr(item, "cls", None)
        name = _getattr(item, "originalname", None)
        obj = _getattr(cls, name, None) if cls is not None and name else _getattr(item, "obj", None)
        return _getattr(obj, "__func__", obj)

    def _item_state(self, item):
        function = self._item_function(item)
        return (
            function,
            _getattr(function, "__code__", None),
            _getattr(function, "__defaults__", None),
            _getattr(function, "__kwdefaults__", None),
        )

    # -- outcomes ---------------------------------------------------------------------------

    def _record(self, node_id, outcome):
        """Records an outcome for `node_id` while its test runs: an error overrides everything,
        a failure everything else."""
        before = self.pending.get(node_id)
        if before == ERROR or (before == FAILED and outcome != ERROR):
            return
        self.pending[node_id] = outcome

    # -- pytest hooks -----------------------------------------------------------------------

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionstart(self, session):
        self.config = session.config
        self.pluginmanager = session.config.pluginmanager
        for plugin in self.pluginmanager.get_plugins():
            if self.tampered is None and not self._plugin_allowed(plugin):
                name = self.pluginmanager.get_name(plugin)
                self.tampered = f"plugin {name} registered (session start)"
        self.hook_state = self._hook_state()
        pdb = _pytest.debugging.pytestPDB
        self.fingerprint.session_values.update(
            {
                (pdb, "_pluginmanager"): (None, self.pluginmanager),
                (pdb, "_config"): (None, self.config),
            }
        )
        self.verify("session start")

    def pytest_collectreport(self, report):
        if report.failed or report.skipped:
            outcome = ERROR if report.failed else SKIPPED
            for node_id in self.node_ids:
                if _is_under(node_id, report.nodeid):
                    self.pending[node_id] = outcome

    def pytest_itemcollected(self, item):
        if _isinstance(item, _FUNCTION_ITEM):
            self.items[item.nodeid] = self._item_state(item)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session):
        self.collected = _len(session.items)
        if self.verify("after collection"):
            self.outcomes.update(self.pending)
        self.pending = {}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        if self.tampered is not None:
            return True  # no test runs: none would count
        return None

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        # The outermost wrapper: the guard runs once every other plugin is done with the test
        # (pytest's own wrappers restore what they set for it).
        self.pending = {}
        saved = self.items.get(item.nodeid)
        if saved is not None and self.tampered is None:
            now = self._item_state(item)
            if not all(map(_is, now, saved)):
                self.tampered = f"test function {item.nodeid} replaced (before it ran)"
        try:
            return (yield)
        finally:
            if self.verify(f"after {item.nodeid}"):
                self.outcomes.update(self.pending)
            else:
                item.session.shouldstop = "integrity check failed"
            self.pending = {}

    def pytest_runtest_logreport(self, report):
        if self.tampered is not None:
            return
        node_id = report.nodeid
        xfail = _getattr(report, "wasxfail", None) is not None
        if report.when == "call":
            if report.passed:
                self._record(node_id, XPASSED if xfail else PASSED)
            elif report.failed:
                self._record(node_id, FAILED)
            else:
                self._record(node_id, XFAILED if xfail else SKIPPED)
        elif report.failed:  # setup or teardown
            self._record(node_id, ERROR)
        elif report.skipped:  # setup: a skip mark, skip() in a fixture, xfail(run=False)
            self._record(node_id, XFAILED if xfail else SKIPPED)

    # -- the report -------------------------------------------------------------------------

    def report(self, nonce, exit_code):
        """The JSON report: the nonce, each requested id's outcome, what was tampered with,
        pytest's exit code and how many tests it collected."""
        outcomes = ", ".join(
            f"{_json_string(node_id)}: {_json_string(self.outcomes.get(node_id, MISSING))}"
            for node_id in self.node_ids
        )
        tampered = "null" if self.tampered is None else _json_string(self.tampered)
        return (
            f'{{"nonce": {_json_string(nonce)}, "outcomes": {{{outcomes}}}, '
            f'"tampered": {tampered}, "exit_code": {int(exit_code)}, '
            f'"collected": {int(self.collected)}}}\n'
        )


def _guarded_files(node_ids):
    """The test files the ids name and the conftest.py files pytest would load for them (from
    /workspace down to each file's directory), with their contents."""
    files = {}
    for node_id in node_ids:
        path = node_id.split("::", 1)[0]
        candidates = [path]
        parts = path.split("/")[:-1]
        for depth in range(_len(parts) + 1):
            candidates.append("/".join([*parts[:depth], "conftest.py"]))
        for candidate in candidates:
            full = os.path.join(WORKSPACE, candidate)
            if full in files:
                continue
            try:
                with _open(full, "rb") as handle:
                    files[full] = handle.read()
            except OSError:
                if candidate == path:
                    files[full] = None
    return files


def grade(node_ids, report_path, extra_args=()):
    """Runs the tests `node_ids` (pytest node ids relative to /workspace) and writes a JSON
    report to `report_path`; the program then exits with status 0.

    First reads one line from stdin, the nonce, which the report repeats (a report left in the
    tree beforehand cannot know it). Then, before any code of the workspace runs, fingerprints
    what that code could patch to fake passes (see `_Fingerprint`, plus pytest's registered
    hook implementations, the import system's finders, and the test and conftest files the ids
    name); re-checks after collection and after each test's teardown, and once pytest returns.
    On a change the report's `tampered` says what changed and no outcome is counted from then
    on (pytest is stopped).

    pytest runs as `-p no:cacheprovider -p no:faulthandler --capture=sys -q -o addopts=
    --rootdir=/workspace *extra_args *node_ids` with plugin autoloading off: the workspace's
    `addopts` (which could load a plugin of its own or deselect tests) is ignored; the host
    passes what a repository needs (e.g. `--import-mode=importlib`) in `extra_args`.

    Report: `{"nonce": str, "outcomes": {id: outcome}, "tampered": null | str,
    "exit_code": int, "collected": int}` where outcome is one of passed, failed, error (a
    setup, teardown or collection error), skipped, xfailed, xpassed, or missing (never
    reported: not found, not run after a collection error or an interruption, or untrusted).
    `exit_code` is pytest's (3 if pytest itself raised).
    """
    nonce = sys.stdin.readline().rstrip("\r\n")
    node_ids = _list(dict.fromkeys(str(node_id) for node_id in node_ids))
    fingerprint = _STATE.get("baseline")
    if fingerprint is None or fingerprint.changes():
        fingerprint = _Fingerprint()  # the snapshot's is stale (nothing should change it)
    grader = _Grader(node_ids, _guarded_files(node_ids), fingerprint)
    _WATCHED.update(map(id, fingerprint.functions))
    sys.addaudithook(_audit_hook)
    exit_code = 3
    try:
        _enter(["pytest", *node_ids], WORKSPACE)
        os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        exit_code = int(
            _main(
                [*_PYTEST_DEFAULTS, "-q", "-o", "addopts=", f"--rootdir={WORKSPACE}", *extra_args, *node_ids],
                plugins=[grader],
            )
        )
    except BaseException as error:  # noqa: BLE001 - the report is written whatever happened
        try:
            sys.__stderr__.write(f"grade: pytest raised {type(error).__name__}\n")
        except BaseException:  # noqa: BLE001
            pass
    grader.hook_state = None  # pytest has unregistered its plugins
    grader.verify("after the run", grader.stream_changes(), functions=True)
    handle = _open(report_path, "wb")
    grader.lock_down()
    handle.write(grader.report(nonce, exit_code).encode("ascii"))
    handle.close()


def take_baseline():
    """Takes the fingerprint `grade` starts from, at build time (`app` calls this last): in the
    snapshot, a run's `grade` only checks that it still holds instead of taking it anew."""
    fingerprint = _Fingerprint()
    # componentize-py's glue sets the exported class's `__init__` when it instantiates it.
    world = _getattr(_modules.get("app"), "WitWorld", None)
    if world is not None:
        fingerprint.session_values[(world, "__init__")] = (object.__init__,)
    _STATE["baseline"] = fingerprint


_main = pytest.main
_STATE = {}  # "baseline": the fingerprint `take_baseline` took
