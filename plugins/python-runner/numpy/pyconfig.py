"""Derives CPython 3.14's pyconfig.h for wasm32-wasi from the one Debian ships for x86_64.

    pyconfig.py ZIG X86_64_PYCONFIG OUTPUT SCRATCH_DIR

Extension modules read three kinds of facts from pyconfig.h: type sizes and alignments (set here
for wasm32, then checked against the compiler with static assertions), whether threads exist
(WASI's CPython has pthread stubs), and which headers and functions the platform has. Every
`HAVE_<header>_H` and `HAVE_<function>` is kept only when zig's wasi-libc has it (a header that
exists; a program calling the function that links), the way configure finds them. Facts about
the compiler rather than libc are kept as they are.
"""

import concurrent.futures
import os
import re
import subprocess
import sys

WASM32_SIZES = {
    "ALIGNOF_LONG": 4,
    "ALIGNOF_SIZE_T": 4,
    "SIZEOF_LONG": 4,
    "SIZEOF_PTHREAD_T": 4,
    "SIZEOF_SIZE_T": 4,
    "SIZEOF_UINTPTR_T": 4,
    "SIZEOF_VOID_P": 4,
}
# x86_64 or CPython-build facts that do not hold for the runner's CPython.
UNDEFINED = {
    "HAVE_PTHREAD_H",
    "_POSIX_THREADS",
    "WITH_DTRACE",
    "WITH_MIMALLOC",
    "Py_REMOTE_DEBUG",
    "PY_HAVE_PERF_TRAMPOLINE",
    "_Py_HACL_CAN_COMPILE_VEC128",
    "_Py_HACL_CAN_COMPILE_VEC256",
}
# Facts about the compiler and the types, not about libc: not probed.
COMPILER_FACTS = {
    "HAVE_BUILTIN_ATOMIC",
    "HAVE_CLOCK_T",
    "HAVE_COMPUTED_GOTOS",
    "HAVE_DIRENT_D_TYPE",
    "HAVE_GCC_UINT128_T",
    "HAVE_LONG_DOUBLE",
    "HAVE_PROTOTYPES",
    "HAVE_SOCKLEN_T",
    "HAVE_SSIZE_T",
    "HAVE_STAT_TV_NSEC",
    "HAVE_STD_ATOMIC",
    "HAVE___UINT128_T",
}
CHECKED = """#include <Python.h>
#include <stdio.h>
#include <time.h>
#define SAME(n, t) _Static_assert(n == sizeof(t), #n);
SAME(SIZEOF_LONG, long) SAME(SIZEOF_SIZE_T, size_t) SAME(SIZEOF_VOID_P, void *)
SAME(SIZEOF_LONG_DOUBLE, long double) SAME(SIZEOF_TIME_T, time_t) SAME(SIZEOF_OFF_T, off_t)
SAME(SIZEOF_FPOS_T, fpos_t) SAME(SIZEOF_WCHAR_T, wchar_t) SAME(SIZEOF_UINTPTR_T, uintptr_t)
SAME(SIZEOF_PID_T, pid_t) SAME(SIZEOF_INT, int) SAME(SIZEOF_LONG_LONG, long long)
_Static_assert(ALIGNOF_LONG == _Alignof(long), "ALIGNOF_LONG");
_Static_assert(ALIGNOF_SIZE_T == _Alignof(size_t), "ALIGNOF_SIZE_T");
_Static_assert(ALIGNOF_MAX_ALIGN_T == _Alignof(max_align_t), "ALIGNOF_MAX_ALIGN_T");
"""


def platform_has(zig, scratch, index, macro):
    """Whether wasi-libc has the header or function `macro` names."""
    name = macro[len("HAVE_") :]
    source = os.path.join(scratch, f"{macro}.c")
    if name.endswith("_H"):
        stem = name[:-2].lower()
        # HAVE_SYS_TYPES_H is <sys/types.h>; HAVE_XLOCALE_H is <xlocale.h>.
        headers = {stem.replace("_", "/"), stem}
        with open(source, "w") as f:
            f.writelines(f"#if __has_include(<{h}.h>)\nint found_{index};\n#endif\n" for h in headers)
        done = subprocess.run([zig, "cc", "-target", "wasm32-wasi", "-E", source], capture_output=True, text=True)
        return f"found_{index}" in done.stdout
    function = name.lower()
    with open(source, "w") as f:
        f.write(f"char {function}(void);\nint main(void) {{ return (int){function}(); }}\n")
    target = os.path.join(scratch, f"{macro}.wasm")
    done = subprocess.run([zig, "cc", "-target", "wasm32-wasi", "-w", source, "-o", target], capture_output=True)
    return done.returncode == 0


def main():
    zig, original, output, scratch = sys.argv[1:]
    os.makedirs(scratch, exist_ok=True)
    lines = open(original).read().split("\n")
    probes = []
    for i, line in enumerate(lines):
        match = re.match(r"#define (\w+) (.*)$", line)
        if not match:
            continue
        macro = match.group(1)
        if macro in WASM32_SIZES:
            lines[i] = f"#define {macro} {WASM32_SIZES[macro]}"
        elif macro in UNDEFINED:
            lines[i] = f"/* #undef {macro} (not in the wasm32-wasi CPython) */"
        elif macro.startswith("HAVE_") and match.group(2) == "1" and macro not in COMPILER_FACTS:
            probes.append((i, macro))
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        found = list(pool.map(lambda p: platform_has(zig, scratch, *p), probes))
    for (i, macro), has in zip(probes, found):
        if not has:
            lines[i] = f"/* #undef {macro} (not in wasi-libc) */"
    # WASI's CPython has no threads, only pthread stubs; said inside the include guard.
    guard_end = max(i for i, line in enumerate(lines) if line.startswith("#endif"))
    lines.insert(guard_end, "#define HAVE_PTHREAD_STUBS 1")
    text = "\n".join(lines) + "\n"
    with open(output, "w") as f:
        f.write(text)
    # The sizes must be the compiler's.
    check = os.path.join(scratch, "sizes.c")
    with open(check, "w") as f:
        f.write(CHECKED)
    include = os.path.dirname(output)
    done = subprocess.run(
        [zig, "cc", "-target", "wasm32-wasi", "-fPIC", "-I", include, "-c", check, "-o", check + ".o"],
        capture_output=True,
        text=True,
    )
    if done.returncode:
        sys.exit(f"pyconfig.h for wasm32-wasi disagrees with the compiler:\n{done.stderr}")


if __name__ == "__main__":
    main()
