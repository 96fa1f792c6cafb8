#!/bin/sh
# Builds the Python runner component: CPython (via componentize-py, pinned) plus guest/app.py.
#
#   plugins/python-runner/build.sh [OUTPUT [--with-numpy]]
#
# OUTPUT defaults to target/python-runner/python_runner.wasm. With --with-numpy the component
# also holds numpy, built for WASI by numpy/build.sh (cached in target/numpy-wasi).
#
# Installs componentize-py into target/py-build-venv the first time (needs python3 with venv and
# access to PyPI); later runs reuse it. The host's build script calls this when the component
# is missing or one of its inputs changed.
set -eu
COMPONENTIZE_PY_VERSION=0.25.1
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

mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
cd "$here"
# No VIRTUAL_ENV: only guest/, ../cpython-common, the interpreter's own standard library (and
# numpy when asked) go into the component.
# shellcheck disable=SC2086 - extra is empty or one option and its value
env -u VIRTUAL_ENV "$venv/bin/componentize-py" --quiet -d wit -w python-runner \
    componentize --python-path guest --python-path ../cpython-common $extra app -o "$tmp"
mv "$tmp" "$out"
