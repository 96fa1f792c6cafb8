"""Builds BLIS (the BLAS of the PyPI package `blis`, whose source distribution carries BLIS
flattened for a few configurations) as a static wasm32-wasi library with its BLAS and CBLAS
interfaces, for numpy's `@`, dot and friends.

    blis.py ZIG SRC OUT.a WORKDIR

SRC is the package's `blis/_src`. Compiles what the package's own build compiles for the
`generic` configuration (listed in make/linux-generic.jsonl: the framework and the reference
kernels, with their flags) plus the BLAS and CBLAS compatibility layers, position-independent,
with wasm SIMD (simd128) so that clang vectorises the kernels; single-threaded (the
configuration enables no threading; pthread_single.c stands in for the POSIX calls BLIS's
wrappers name). Every symbol hidden. Two compilers at a time.
"""

import glob
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
# BLIS knows no WASI; `EMSCRIPTEN` only picks its "other OS" branch (no OS-specific code).
# Hidden: each numpy module that uses BLIS holds its own copy and exports none of it.
COMMON = ["-target", "wasm32-wasi", "-fPIC", "-msimd128", "-fvisibility=hidden", "-DEMSCRIPTEN", "-w"]
INTERFACES = ["-DBLIS_ENABLE_BLAS", "-DBLIS_ENABLE_CBLAS"]


def main():
    zig, src, out, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    jobs = []
    listed = open(os.path.join(src, "make", "linux-generic.jsonl")).read().splitlines()[1:]
    for line in listed:
        entry = json.loads(line)
        flags = [f for f in entry["flags"] if f not in ("-fopenmp-simd", "-fvisibility=default")]
        jobs.append((entry["source"], flags + entry["macros"] + INTERFACES + entry["include"]))
    include = json.loads(listed[0])["include"]
    compat = ["-O3", "-std=c99", "-D_POSIX_C_SOURCE=200112L", '-DBLIS_VERSION_STRING="0.7.0"',
              "-DBLIS_IS_BUILDING_LIBRARY", *INTERFACES, *include,
              "-Iframe/compat/cblas/src", "-Iframe/compat/cblas/f77_sub"]
    for pattern in ("*.c", "f2c/*.c", "f2c/util/*.c", "cblas/src/*.c", "cblas/f77_sub/*.c"):
        for path in sorted(glob.glob(os.path.join(src, "frame", "compat", pattern))):
            jobs.append((os.path.relpath(path, src), compat))

    def compile_(job):
        source, flags = job
        obj = os.path.join(work, source.replace("/", "_") + ".o")
        cmd = [zig, "cc", *COMMON, *flags, "-c", source, "-o", obj]
        done = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
        return obj, done.returncode, source + ": " + done.stderr

    objs = []
    with ThreadPoolExecutor(2) as pool:
        for obj, code, err in pool.map(compile_, jobs):
            if code:
                sys.exit(err)
            objs.append(obj)
    stub = os.path.join(work, "pthread_single.o")
    cmd = [zig, "cc", *COMMON, "-O2", "-c", os.path.join(HERE, "pthread_single.c"), "-o", stub]
    subprocess.run(cmd, check=True)
    if os.path.exists(out):
        os.remove(out)
    subprocess.run([zig, "ar", "rcs", out, *objs, stub], check=True)


if __name__ == "__main__":
    main()
