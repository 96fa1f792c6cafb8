#!/usr/bin/env bash
# `bash tests/doors/wheel.sh PYTHON`: (re)installs the geode wheel from target/py-wheels into the
# venv of PYTHON, without its dependencies (numpy is added if missing), unless that very wheel is
# already there. Quiet and idempotent; shared by venv.sh and host/serve/openenv-venv.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PY="$1"
WHEEL="$(ls -t "$ROOT"/target/py-wheels/geode-*.whl 2>/dev/null | head -1)"
if [ -z "$WHEEL" ]; then
    echo "tests/doors/wheel.sh: no geode wheel in target/py-wheels; run bash host/python/dev-install.sh" >&2
    exit 1
fi
STAMP="$(dirname "$(dirname "$PY")")/.geode-wheel"
SUM="$(sha256sum "$WHEEL" | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$SUM" ]; then
    if ! "$PY" -c "import numpy" 2>/dev/null; then
        "$PY" -m pip install -q --disable-pip-version-check numpy
    fi
    "$PY" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall "$WHEEL"
    echo "$SUM" > "$STAMP"
fi
