"""The Python meson sees while cross-compiling numpy for wasm32-wasi.

    meson_python.py INCLUDE_DIR ARGS...          run as the build's `python`
    meson_python.py --run-meson PYTHON MESON ARGS...   run meson with PYTHON as its Python

meson asks "the" Python about the target (version, extension suffix, headers) by running its
`python_info.py` with it. This answers for CPython 3.14 on wasm32-wasi, with the headers in
INCLUDE_DIR, and runs every other command (numpy's code generators) on the build machine's
Python. meson's own checks (the Cython sanity check) use the Python running meson, so meson is
started with `sys.executable` pointing here too.
"""

import contextlib
import io
import json
import os
import runpy
import sys

SUFFIX = ".cpython-314-wasm32-wasi.so"


def describe_target(include, info_script, args):
    """Runs meson's introspection script and rewrites its answer for the target."""
    out = io.StringIO()
    sys.argv = [info_script, *args]
    with contextlib.redirect_stdout(out):
        runpy.run_path(info_script, run_name="__main__")
    info = json.loads(out.getvalue())
    variables = info["variables"]
    # No libpython to link against, and no pkg-config file to consult: the runner provides
    # CPython's symbols when it links the modules.
    for key in ("LIBPC", "LIBPL", "LDLIBRARY", "LIBRARY", "LIBDIR"):
        variables.pop(key, None)
    variables.update(
        {
            "EXT_SUFFIX": SUFFIX,
            "SOABI": "cpython-314-wasm32-wasi",
            "INCLUDEPY": include,
            "py_version_short": "3.14",
            "VERSION": "3.14",
            "LDVERSION": "3.14",
            "Py_GIL_DISABLED": 0,
            "Py_ENABLE_SHARED": 0,
            "SIZEOF_VOID_P": 4,
            "LIBPYTHON": "",
        }
    )
    for key in ("paths", "sysconfig_paths"):
        info[key]["include"] = include
        info[key]["platinclude"] = include
    info.update(
        {
            "version": "3.14",
            "platform": "wasi-wasm32",
            "link_libpython": False,
            "suffix": SUFFIX,
            "limited_api_suffix": ".abi3.so",
            "is_freethreaded": False,
        }
    )
    print(json.dumps(info))


def main():
    if sys.argv[1] == "--run-meson":
        python, meson, *args = sys.argv[2:]
        sys.executable = python
        sys.argv = [meson, *args]
        runpy.run_path(meson, run_name="__main__")
        return
    include, *args = sys.argv[1:]
    if args and args[0].endswith("python_info.py"):
        describe_target(include, args[0], args[1:])
    else:
        os.execv(sys.executable, [sys.executable, *args])


if __name__ == "__main__":
    main()
