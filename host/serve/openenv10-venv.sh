#!/usr/bin/env bash
# Creates target/openenv10-venv: openenv 0.10 (OpenEnv's current package, pinned) and pytest, so
# tests/openenv runs OpenEnv's current clients against `geode serve` as well as openenv-core 0.3's
# (target/openenv-venv, from openenv-venv.sh). Idempotent and quiet.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VENV="$ROOT/target/openenv10-venv"
PY="$VENV/bin/python"
if [ ! -x "$PY" ]; then
    "${PYTHON:-python3}" -m venv "$VENV"
fi
if ! "$PY" -c "from importlib.metadata import version as v; assert v('openenv') == '0.10.0'; import pytest, websockets" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check "openenv==0.10.0" "pytest>=8,<10" "websockets>=15,<17"
fi
