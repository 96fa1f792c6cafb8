#!/bin/sh
# Builds the math grader component: CPython (componentize-py, pinned), the grading libraries
# (pinned, pure Python, installed with pip --target into a build directory) and guest/.
#
#   plugins/math-grader/build.sh [OUTPUT]   (default: target/math-grader/math_grader.wasm)
#
# Reuses the componentize-py venv of the Python runner (target/py-build-venv, created the first
# time); needs python3 and PyPI the first time, then the downloaded packages are reused.
set -eu
COMPONENTIZE_PY_VERSION=0.25.1
# The grading libraries, at the versions the golden verdicts were recorded with.
PACKAGES="sympy==1.14.0 mpmath==1.3.0 math-verify==0.9.0 latex2sympy2_extended==1.11.0 antlr4-python3-runtime==4.13.2 pylatexenc==2.11"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${GEODE_PY_BUILD_VENV:-$root/target/py-build-venv}
out=${1:-$root/target/math-grader/math_grader.wasm}
site=${GEODE_MATH_GRADER_SITE:-$(dirname "$out")/site-packages}
python=${PYTHON:-python3}

if ! "$venv/bin/componentize-py" --version 2>/dev/null | grep -qx "componentize-py $COMPONENTIZE_PY_VERSION"; then
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "componentize-py==$COMPONENTIZE_PY_VERSION"
fi

# The packages, once per pin set (a stamp records which).
if [ "$(cat "$site/.pins" 2>/dev/null)" != "$PACKAGES" ]; then
    rm -rf "$site"
    # shellcheck disable=SC2086 - PACKAGES is a list
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --only-binary :all: --target "$site" $PACKAGES
    echo "$PACKAGES" > "$site/.pins"
fi

mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
cd "$here"
env -u VIRTUAL_ENV "$venv/bin/componentize-py" --quiet -d wit -w math-grader \
    componentize --python-path guest --python-path ../cpython-common --python-path "$site" app -o "$tmp"
mv "$tmp" "$out"
