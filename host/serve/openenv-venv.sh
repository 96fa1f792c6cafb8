#!/usr/bin/env bash
# Creates target/openenv-venv: openenv-core (OpenEnv's client and server library, pinned) and
# pytest, for tests/openenv (OpenEnv's own client against `geode serve`) and
# benches/serve_load.py (geode serve against an OpenEnv server). A venv of its own: openenv-core
# pulls in gradio and fastmcp, which the geode wheel's venv does not need. Idempotent and quiet.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VENV="$ROOT/target/openenv-venv"
PY="$VENV/bin/python"
if [ ! -x "$PY" ]; then
    "${PYTHON:-python3}" -m venv "$VENV"
fi
if ! "$PY" -c "import openenv.core, pytest, websockets" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check "openenv-core==0.3.0" "pytest>=8,<10" "websockets>=15,<17"
fi
