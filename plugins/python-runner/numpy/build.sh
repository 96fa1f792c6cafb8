#!/bin/sh
# Builds numpy for the Python runner: numpy's C and C++ compiled to position-independent
# wasm32-wasi shared libraries, which componentize-py links into the runner beside CPython.
#
#   plugins/python-runner/numpy/build.sh [SITE]   (default: target/numpy-wasi/site)
#
# SITE receives the `numpy` package (Python files and `.cpython-314-wasm32-wasi.so` modules).
# Everything comes from package registries: numpy's source distribution (PyPI, sha256-pinned),
# zig (PyPI `ziglang`, pinned: clang, wasm-ld, wasi-libc, libc++ and compiler-rt), Cython and
# ninja (PyPI, pinned), and CPython 3.14's headers (Debian's libpython3.14-dev, the current one
# of sid or forky: the runner's CPython is 3.14, and headers within 3.14 share one ABI). A
# stamp skips the build when these files did not change. Takes about 3 minutes on two cores;
# needs python3 and the network once.
set -eu
NUMPY_VERSION=2.5.5
NUMPY_URL=https://files.pythonhosted.org/packages/4e/3a/8770c288c47f0b5c2a786d3c20e79f66fd245f2d42cd232d7cd5e00e83e5/numpy-2.5.5.tar.gz
NUMPY_SHA256=5cddc243c75114ba845f01b1f87aca1572dbf7b6c2d88636ed3e1d2bccd7f1bf
TOOLS="ziglang==0.17.0 cython==3.3.1 ninja==1.13.2"
DEBIAN=http://deb.debian.org/debian

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=${GEODE_NUMPY_WASI_DIR:-$root/target/numpy-wasi}
site=${1:-$work/site}
python=${PYTHON:-python3}
stamp="$site/.stamp"
wanted=$(cat "$here"/build.sh "$here"/*.py "$here"/*.c | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
    exit 0
fi
mkdir -p "$work"
exec 9>"$work/.lock"
flock 9
if [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
    exit 0
fi

# The build tools, once per pin set.
venv=$work/venv
if [ "$(cat "$venv/.pins" 2>/dev/null)" != "$TOOLS" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    # shellcheck disable=SC2086 - TOOLS is a list
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $TOOLS
    echo "$TOOLS" > "$venv/.pins"
fi
py=$venv/bin/python
zig=$("$py" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')
export ZIG_GLOBAL_CACHE_DIR="$work/zig-cache"

# numpy's source, unpacked afresh and edited.
src=$work/numpy-$NUMPY_VERSION
if ! echo "$NUMPY_SHA256  $work/numpy.tar.gz" | sha256sum -c --quiet 2>/dev/null; then
    curl -fsSL -o "$work/numpy.tar.gz" "$NUMPY_URL"
    echo "$NUMPY_SHA256  $work/numpy.tar.gz" | sha256sum -c --quiet
fi
rm -rf "$src" && tar xzf "$work/numpy.tar.gz" -C "$work"
"$py" "$here/default_int64.py" "$src"

# CPython 3.14's headers with a pyconfig.h for wasm32-wasi.
inc=$work/include/python3.14
# The first of these Debian suites that has the package (unstable, then testing).
deb=""
for suite in sid forky; do
    curl -fsSL -o "$work/Packages.xz" "$DEBIAN/dists/$suite/main/binary-amd64/Packages.xz"
    deb=$("$py" - "$work/Packages.xz" <<'PY'
import lzma, sys
for entry in lzma.open(sys.argv[1], "rt").read().split("\n\n"):
    fields = dict(line.split(": ", 1) for line in entry.splitlines() if ": " in line)
    if fields.get("Package") == "libpython3.14-dev":
        print(fields["Filename"])
        break
PY
)
    [ -n "$deb" ] && break
done
[ -n "$deb" ] || { echo "libpython3.14-dev is in neither Debian sid nor forky" >&2; exit 1; }
rm -rf "$work/deb" && mkdir -p "$work/deb"
curl -fsSL -o "$work/deb/dev.deb" "$DEBIAN/$deb"
(cd "$work/deb" && "$zig" ar x dev.deb &&
    "$py" -c 'import glob, tarfile; tarfile.open(glob.glob("data.tar.*")[0]).extractall(".", filter="data")')
rm -rf "$work/include" && mkdir -p "$inc"
cp -r "$work/deb/usr/include/python3.14/." "$inc/"
"$py" "$here/pyconfig.py" "$zig" "$work/deb/usr/include/x86_64-linux-gnu/python3.14/pyconfig.h" \
    "$inc/pyconfig.h" "$work/pyconfig-checks"
# A C header CPython installs uses C's `restrict`, which C++ spells `__restrict`.
sed -i 's/\*restrict /*__restrict /g' "$inc/cpython/pthread_stubs.h"

# What every shared library links statically: compiler-rt (128-bit long double arithmetic),
# libc++ and libc++abi (zig builds them for wasm32-wasi; the runner has no C++ library of a
# matching version), and a throw that ends the program (no unwinding in this build).
libs=$work/libs
mkdir -p "$libs"
"$zig" build-lib -target wasm32-wasi -fPIC -OReleaseFast -fno-stack-check --name compiler_rt \
    "$(dirname "$zig")/lib/compiler_rt.zig" -femit-bin="$libs/libcompiler_rt.a"
"$zig" cc -target wasm32-wasi -fPIC -O2 -c "$here/cxa_throw_aborts.c" -o "$libs/cxa_throw_aborts.o"
printf '#include <string>\nint main() { return (int)std::string("x").size(); }\n' > "$libs/probe.cpp"
ZIG_VERBOSE_LINK=1 "$zig" c++ -target wasm32-wasi -fPIC "$libs/probe.cpp" -o "$libs/probe.wasm" \
    2>"$libs/probe.log"
for lib in c++ c++abi; do
    found=$(tr ' ' '\n' < "$libs/probe.log" | grep "/lib$lib.a\$" | head -n1)
    [ -n "$found" ] || { echo "zig did not build lib$lib.a" >&2; exit 1; }
    cp "$found" "$libs/lib$lib.a"
done

# Compiler drivers for meson: compile with zig's clang; a link of a shared library goes to
# wasi_link.py.
bin=$work/bin
mkdir -p "$bin"
for driver in cc c++; do
    cat > "$bin/wasi-$driver" <<SCRIPT
#!/bin/sh
for arg in "\$@"; do
    [ "\$arg" = "-shared" ] && exec "$py" "$here/wasi_link.py" "$zig" "$libs" "\$@"
done
exec "$zig" $driver -target wasm32-wasi -fPIC "\$@"
SCRIPT
done
printf '#!/bin/sh\nexec "%s" ar "$@"\n' "$zig" > "$bin/wasi-ar"
printf '#!/bin/sh\nexec "%s" "%s" "%s" "$@"\n' "$py" "$here/meson_python.py" "$inc" > "$bin/python-wasi"
chmod +x "$bin"/*
cat > "$work/cross.ini" <<INI
[binaries]
c = '$bin/wasi-cc'
cpp = '$bin/wasi-c++'
ar = '$bin/wasi-ar'
python = '$bin/python-wasi'
cython = '$venv/bin/cython'

[properties]
longdouble_format = 'IEEE_QUAD_LE'
needs_exe_wrapper = true

[host_machine]
system = 'wasi'
cpu_family = 'wasm32'
cpu = 'wasm32'
endian = 'little'
INI

# Configure, build and install numpy (no BLAS: numpy's own lapack_lite; no SIMD dispatch).
build=$work/build
stage=$work/stage
rm -rf "$build" "$stage"
meson() {
    PATH="$venv/bin:$PATH" "$py" "$here/meson_python.py" --run-meson "$bin/python-wasi" \
        "$src/vendored-meson/meson/meson.py" "$@"
}
(cd "$src" && meson setup "$build" --cross-file "$work/cross.ini" -Dbuildtype=release \
    -Db_ndebug=if-release -Dallow-noblas=true -Dblas=none -Dlapack=none \
    -Ddisable-optimization=true -Dcpu-baseline=none -Dcpu-dispatch=none \
    -Ddisable-threading=true -Ddisable-highway=true -Ddisable-intel-sort=true \
    -Ddisable-svml=true) > "$work/setup.log" 2>&1 || { tail -n 20 "$work/setup.log" >&2; exit 1; }
PATH="$venv/bin:$PATH" ninja -C "$build" > "$work/build.log" 2>&1 || { grep -A 12 FAILED "$work/build.log" | head -n 40 >&2; exit 1; }
meson install -C "$build" --destdir "$stage" --no-rebuild > "$work/install.log" 2>&1

# The installed package, without what no program uses at run time: test suites and their
# extension modules, type stubs, headers and static libraries for building other extensions,
# and the Fortran and PyInstaller helpers.
installed=$(find "$stage" -type d -name numpy -path '*site-packages/numpy' | head -n1)
rm -rf "$site.tmp" && mkdir -p "$site.tmp"
cp -r "$installed" "$site.tmp/numpy"
cd "$site.tmp/numpy"
find . -name tests -type d -prune -exec rm -rf {} +
find . -name __pycache__ -type d -prune -exec rm -rf {} +
find . \( -name '*.pyi' -o -name '*.pxd' -o -name '*.pyx' -o -name '*.a' -o -name py.typed \) -delete
rm -rf f2py _pyinstaller conftest.py _core/include _core/lib
rm -f _core/_multiarray_tests.* _core/_umath_tests.* _core/_rational_tests.* \
    _core/_struct_ufunc_tests.* _core/_operand_flag_tests.* _core/_simd.*
cd "$root"
rm -rf "$site" && mv "$site.tmp" "$site"
echo "$wanted" > "$stamp"
# Keep the tools and numpy's source archive; the rest is made again by the next build.
rm -rf "$build" "$stage" "$src" "$work/deb" "$work/include" "$work/pyconfig-checks" \
    "$work/zig-cache" "$libs" "$bin" "$work/cross.ini" "$work/Packages.xz"
