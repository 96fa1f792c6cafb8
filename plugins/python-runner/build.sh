#!/bin/sh
# Builds the Python runner component: CPython (via componentize-py, pinned) plus guest/app.py.
#
#   plugins/python-runner/build.sh [OUTPUT [--with-numpy]]
#
# OUTPUT defaults to target/python-runner/python_runner.wasm. With --with-numpy the component
# also holds numpy, built for WASI by numpy/build.sh (cached in target/numpy-wasi).
#
# Installs componentize-py into target/py-build-venv the first time (needs python3 with venv and
# access to PyPI); later runs reuse it. Both builds also hold pytest (pure Python, the versions
# below, installed with that venv's pip into target/pytest-site and reinstalled only when the
# list changes). The host's build script calls this when the component is missing or one of its
# inputs changed.
set -eu
COMPONENTIZE_PY_VERSION=0.25.1
# pytest and what it imports. pygments is not optional since pytest 8.4 (its terminal writer
# imports it); only the few modules pytest imports go into the component.
PYTEST_PACKAGES="pytest==8.4.2 pluggy==1.6.0 iniconfig==2.1.0 packaging==25.0 pygments==2.19.2"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${GEODE_PY_BUILD_VENV:-$root/target/py-build-venv}
out=${1:-$root/target/python-runner/python_runner.wasm}
extra=""
if [ "${2:-}" = "--with-numpy" ]; then
    sh "$here/numpy/build.sh" "$root/target/numpy-wasi/site"
    extra="--python-path $root/target/numpy-wasi/site"
fi
python=${PYTHON:-python3}

if ! "$venv/bin/componentize-py" --version 2>/dev/null | grep -qx "componentize-py $COMPONENTIZE_PY_VERSION"; then
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "componentize-py==$COMPONENTIZE_PY_VERSION"
fi

site=$root/target/pytest-site
if [ "$(cat "$site/.packages" 2>/dev/null)" != "$PYTEST_PACKAGES" ]; then
    rm -rf "$site" "$site.tmp"
    # shellcheck disable=SC2086 - one word per package
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --no-compile --target "$site.tmp" $PYTEST_PACKAGES
    echo "$PYTEST_PACKAGES" >"$site.tmp/.packages"
    mv "$site.tmp" "$site"
fi

mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
cd "$here"
# No VIRTUAL_ENV: only guest/, ../cpython-common, pytest, the interpreter's own standard library
# (and numpy when asked) go into the component.
# shellcheck disable=SC2086 - extra is empty or one option and its value
env -u VIRTUAL_ENV "$venv/bin/componentize-py" --quiet -d wit -w python-runner \
    componentize --python-path guest --python-path ../cpython-common --python-path "$site" \
    $extra app -o "$tmp"
mv "$tmp" "$out"
