#!/usr/bin/env bash
# `bash tests/doors/wheel.sh PYTHON`: makes the geode wheel from target/py-wheels importable in
# the venv of PYTHON. The wheel is unpacked once, into target/py-wheel-site (its native module is
# 270 MB: one copy for every venv, not one each), and a geode-wheel.pth in the venv's
# site-packages puts that directory on its path; numpy, the wheel's one dependency, is installed
# if missing. Quiet and idempotent; shared by venv.sh and host/serve/openenv-venv.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PY="$1"
WHEEL="$(ls -t "$ROOT"/target/py-wheels/geode-*.whl 2>/dev/null | head -1)"
if [ -z "$WHEEL" ]; then
    echo "tests/doors/wheel.sh: no geode wheel in target/py-wheels; run bash host/python/dev-install.sh" >&2
    exit 1
fi
SITE="$ROOT/target/py-wheel-site"
SUM="$(sha256sum "$WHEEL" | cut -d' ' -f1)"
if [ "$(cat "$SITE/.wheel-sha256" 2>/dev/null)" != "$SUM" ]; then
    rm -rf "$SITE"
    "$PY" -m zipfile -e "$WHEEL" "$SITE"
    echo "$SUM" > "$SITE/.wheel-sha256"
fi
PURELIB="$("$PY" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")"
if [ -d "$PURELIB/geode" ]; then  # a copy pip installed earlier would shadow the shared one
    "$PY" -m pip uninstall -q -y geode
fi
echo "$SITE" > "$PURELIB/geode-wheel.pth"
if ! "$PY" -c "import numpy" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check numpy
fi
