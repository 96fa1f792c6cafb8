"""Links a wasm32-wasi shared library (a `dylink.0` module) from a compiler driver's command line.

    wasi_link.py ZIG LIBS DRIVER-ARGS...

zig's own linker makes no shared wasm libraries, so this runs wasm-ld: sources on the command
line are compiled first (position-independent), then every object is linked with what LIBS holds
(compiler-rt, libc++, libc++abi, the throw that aborts). Symbols still undefined become imports
that componentize-py resolves against CPython and libc when it links the runner.
"""

import os
import subprocess
import sys

SOURCES = (".c", ".cc", ".cpp")
# Linker flags of ELF toolchains that wasm-ld lacks or that mean nothing here.
DROPPED = ("--start-group", "--end-group", "--as-needed", "--allow-shlib-undefined", "-O1")


def main():
    zig, libs, *args = sys.argv[1:]
    out = args[args.index("-o") + 1]
    taken = {args.index("-o"), args.index("-o") + 1}
    cflags = [
        a
        for i, a in enumerate(args)
        if i not in taken
        and a.startswith("-")
        and not a.startswith(("-Wl,", "-l", "-L"))
        and a not in ("-c", "-shared")
    ]
    inputs = []
    for i, arg in enumerate(args):
        if i in taken:
            continue
        if arg.startswith("-Wl,"):
            inputs += [
                flag
                for flag in arg[4:].split(",")
                if flag not in DROPPED and not flag.startswith(("-rpath", "-soname"))
            ]
        elif arg.startswith("-"):
            continue  # compiler flags; -l/-L name libraries the runner already provides
        elif arg.endswith(SOURCES):
            driver = "cc" if arg.endswith(".c") else "c++"
            obj = f"{out}.{os.path.basename(arg)}.o"
            compile_cmd = [zig, driver, "-target", "wasm32-wasi", "-fPIC", "-c", arg, "-o", obj]
            if subprocess.call(compile_cmd + cflags):
                sys.exit(1)
            inputs.append(obj)
        else:
            inputs.append(arg)
    static = [os.path.join(libs, n) for n in ("cxa_throw_aborts.o", "libc++.a", "libc++abi.a", "libcompiler_rt.a")]
    link = [zig, "wasm-ld", "--experimental-pic", "-shared", "--strip-debug"]
    link += ["--unresolved-symbols=import-dynamic", "-o", out, *inputs, *static]
    sys.exit(subprocess.call(link))


if __name__ == "__main__":
    main()
