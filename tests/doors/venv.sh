#!/usr/bin/env bash
# Shared by the doors' setup.sh: `bash tests/doors/venv.sh DOOR CHECK PIN...` makes
# target/doors/DOOR/venv unless `python -c CHECK` already passes in it, installs PIN... with
# pytest, then (re)installs the geode wheel from target/py-wheels without its dependencies
# (numpy comes with the pins or is added here). Quiet and idempotent.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DOOR="$1"; CHECK="$2"; shift 2
VENV="$ROOT/target/doors/$DOOR/venv"
PY="$VENV/bin/python"
if [ ! -x "$PY" ]; then
    "${PYTHON:-python3}" -m venv "$VENV"
fi
if ! "$PY" -c "$CHECK" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check "$@" "pytest>=8,<10" numpy
fi
bash "$ROOT/tests/doors/wheel.sh" "$PY"
