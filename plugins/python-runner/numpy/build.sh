#!/bin/sh
# Builds numpy for the Python runner: numpy's C and C++ compiled to position-independent
# wasm32-wasi shared libraries, which componentize-py links into the runner beside CPython.
#
#   plugins/python-runner/numpy/build.sh [SITE]   (default: target/numpy-wasi/site)
#
# SITE receives the `numpy` package (Python files and `.cpython-314-wasm32-wasi.so` modules).
# numpy's `@`, dot and the like run on BLIS (blis.py: its C source from the source distribution
# of PyPI's `blis`, compiled with wasm SIMD) instead of numpy's loops without BLAS.
# Everything comes from package registries, through their own clients: pip fetches numpy's and
# blis's source distributions (sha256-pinned), zig (`ziglang`, pinned: clang, wasm-ld, wasi-libc,
# libc++ and compiler-rt), Cython, ninja and pkgconf (pinned); apt-get fetches CPython 3.14's headers
# (Debian's libpython3.14-dev, the current one of sid or forky, from the Debian mirror this
# machine's apt uses: the runner's CPython is 3.14, and headers within 3.14 share one ABI). A
# stamp skips the build when these files did not change. Takes about 4 minutes on two cores;
# needs python3, a Debian apt and the network once.
set -eu
NUMPY_VERSION=2.5.5
NUMPY_SHA256=5cddc243c75114ba845f01b1f87aca1572dbf7b6c2d88636ed3e1d2bccd7f1bf
# The BLAS: BLIS, from the source distribution of PyPI's `blis` (its C source, flattened).
BLIS_VERSION=1.3.4
BLIS_SHA256=c125acd77ccf0184f476b6a599f9819727e19ed311904ed3281118a3d06082d9
TOOLS="ziglang==0.17.0 cython==3.3.1 ninja==1.13.2 pkgconf==3.0.7.post0"

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

# A source distribution from PyPI, sha256-checked: sdist NAME VERSION SHA256 ARCHIVE.
sdist() {
    if echo "$3  $4" | sha256sum -c --quiet > /dev/null 2>&1; then
        return 0
    fi
    # pip reads a source distribution's metadata before it saves the archive, by asking the
    # package's build backend (numpy's, meson-python, would configure a build for it; blis's,
    # setuptools, would build its dependencies). This stand-in for the backends answers with
    # the metadata the archive carries (PKG-INFO).
    rm -rf "$work/pip" && mkdir -p "$work/pip/backend/setuptools"
    cat > "$work/pip/backend/mesonpy.py" <<'PY'
import email.parser, os, shutil

def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    with open("PKG-INFO", encoding="utf-8") as f:
        info = email.parser.Parser().parse(f, headersonly=True)
    name = "%s-%s.dist-info" % (info["Name"].replace("-", "_"), info["Version"])
    os.makedirs(os.path.join(metadata_directory, name))
    shutil.copy("PKG-INFO", os.path.join(metadata_directory, name, "METADATA"))
    return name
PY
    : > "$work/pip/backend/setuptools/__init__.py"
    cp "$work/pip/backend/mesonpy.py" "$work/pip/backend/setuptools/build_meta.py"
    PYTHONPATH="$work/pip/backend" "$py" -m pip download --quiet --disable-pip-version-check \
        --no-deps --no-binary :all: --no-build-isolation --python-version 3.14 \
        -d "$work/pip" "$1==$2"
    mv "$work/pip/$1-$2.tar.gz" "$4"
    rm -rf "$work/pip"
    echo "$3  $4" | sha256sum -c --quiet
}

# numpy's source, unpacked afresh and edited.
src=$work/numpy-$NUMPY_VERSION
sdist numpy "$NUMPY_VERSION" "$NUMPY_SHA256" "$work/numpy.tar.gz"
rm -rf "$src" && tar xzf "$work/numpy.tar.gz" -C "$work"
"$py" "$here/default_int64.py" "$src"

# CPython 3.14's headers with a pyconfig.h for wasm32-wasi.
inc=$work/include/python3.14
# apt-get fetches Debian's libpython3.14-dev (amd64, checked against the suite's signed index)
# from the Debian mirror this machine's apt uses: the first source of a release (not of its
# -security or -updates suites) in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list.
mirror=$("$py" - <<'PY'
import glob, re
found = []
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for stanza in re.split(r"\n\s*\n", open(path).read()):
        fields = dict(re.findall(r"^([A-Za-z-]+):[ \t]*(.*)$", stanza, re.M))
        if "deb" in fields.get("Types", "").split() and fields.get("Enabled", "yes") != "no":
            suites = fields.get("Suites", "").split()
            found += [(uri, suites) for uri in fields.get("URIs", "").split()]
for path in glob.glob("/etc/apt/sources.list"):
    for line in open(path):
        words = re.sub(r"\[[^]]*\]", "", line.split("#")[0]).split()
        if len(words) >= 3 and words[0] == "deb":
            found.append((words[1], [words[2]]))
print(next((uri for uri, suites in found if any("-" not in suite for suite in suites)), ""))
PY
)
if [ -z "$mirror" ]; then
    echo "no Debian source in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list" >&2
    exit 1
fi
aptdir=$work/apt
apt_() {
    tool=$1 && shift
    "$tool" -qq -o Dir::Etc::SourceList="$aptdir/sources.list" -o Dir::Etc::SourceParts=/dev/null \
        -o Dir::State::Lists="$aptdir/lists" -o Dir::Cache="$aptdir/cache" \
        -o APT::Architecture=amd64 -o APT::Architectures=amd64 -o APT::Sandbox::User=root "$@"
}
rm -rf "$work/deb" && mkdir -p "$work/deb"
# The first of these Debian suites that has the package (unstable, then testing).
found=""
for suite in sid forky; do
    rm -rf "$aptdir" && mkdir -p "$aptdir/lists/partial" "$aptdir/cache/archives/partial"
    echo "deb $mirror $suite main" > "$aptdir/sources.list"
    if apt_ apt-get update && apt_ apt-cache show libpython3.14-dev > /dev/null 2>&1; then
        found=$suite
        break
    fi
done
[ -n "$found" ] || { echo "libpython3.14-dev is in neither Debian sid nor forky" >&2; exit 1; }
(cd "$work/deb" && apt_ apt-get download libpython3.14-dev && mv libpython3.14-dev_*.deb dev.deb)
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

# BLIS for wasm32-wasi with SIMD (blis.py), and a pkg-config file that offers it to numpy's
# meson as the Netlib-style `blas` (BLAS and CBLAS in one static library, LP64).
sdist blis "$BLIS_VERSION" "$BLIS_SHA256" "$work/blis.tar.gz"
rm -rf "$work/blis-$BLIS_VERSION" && tar xzf "$work/blis.tar.gz" -C "$work"
"$py" "$here/blis.py" "$zig" "$work/blis-$BLIS_VERSION/blis/_src" "$libs/libblis.a" "$libs/blis"
mkdir -p "$libs/pkgconfig"
printf 'Name: blas\nDescription: BLIS %s (generic, wasm32-wasi, simd128)\nVersion: %s\nLibs: %s\nCflags:\n' \
    "$BLIS_VERSION" "$BLIS_VERSION" "$libs/libblis.a" > "$libs/pkgconfig/blas.pc"

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
pkg-config = '$venv/bin/pkgconf'

[properties]
longdouble_format = 'IEEE_QUAD_LE'
needs_exe_wrapper = true
pkg_config_libdir = '$libs/pkgconfig'

[host_machine]
system = 'wasi'
cpu_family = 'wasm32'
cpu = 'wasm32'
endian = 'little'
INI

# Configure, build and install numpy (BLIS as BLAS; numpy's own lapack_lite as LAPACK; no SIMD
# dispatch).
build=$work/build
stage=$work/stage
rm -rf "$build" "$stage"
meson() {
    PATH="$venv/bin:$PATH" "$py" "$here/meson_python.py" --run-meson "$bin/python-wasi" \
        "$src/vendored-meson/meson/meson.py" "$@"
}
(cd "$src" && meson setup "$build" --cross-file "$work/cross.ini" -Dbuildtype=release \
    -Db_ndebug=if-release -Dallow-noblas=true -Dblas=blas -Dlapack=none \
    -Ddisable-optimization=true -Dcpu-baseline=none -Dcpu-dispatch=none \
    -Ddisable-threading=true -Ddisable-highway=true -Ddisable-intel-sort=true \
    -Ddisable-svml=true) > "$work/setup.log" 2>&1 || { tail -n 20 "$work/setup.log" >&2; exit 1; }
# allow-noblas would let a BLIS that fails meson's check fall back to the slow loops.
grep -q "dependency blas found: YES" "$work/setup.log" || {
    grep -i blas "$work/setup.log" >&2
    echo "numpy's meson did not take BLIS as its BLAS (see $work/setup.log)" >&2
    exit 1
}
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
    "$work/zig-cache" "$libs" "$bin" "$work/cross.ini" "$aptdir" "$work/blis-$BLIS_VERSION"
