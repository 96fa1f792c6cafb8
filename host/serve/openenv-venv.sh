#!/usr/bin/env bash
# Creates the venv of OpenEnv's client and server library, pinned, with pytest, for tests/openenv
# (OpenEnv's own clients against `geode serve`) and benches/serve_load.py (geode serve against an
# OpenEnv server). A venv of its own: OpenEnv pulls in gradio and fastmcp, which the geode wheel's
# venv does not need. Idempotent and quiet.
#
#   bash host/serve/openenv-venv.sh        # target/openenv-venv: openenv-core 0.3.0
#   bash host/serve/openenv-venv.sh 0.10   # target/openenv10-venv: openenv 0.10.0 (its current
#                                          # package) and the geode wheel, for geode.openenv
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
case "${1:-0.3}" in
    0.3) VENV="$ROOT/target/openenv-venv"; PACKAGE=openenv-core; VERSION=0.3.0 ;;
    0.10) VENV="$ROOT/target/openenv10-venv"; PACKAGE=openenv; VERSION=0.10.0 ;;
    *) echo "openenv-venv.sh: unknown OpenEnv line '$1' (0.3 or 0.10)" >&2; exit 2 ;;
esac
PY="$VENV/bin/python"
if [ ! -x "$PY" ]; then
    "${PYTHON:-python3}" -m venv "$VENV"
fi
if ! "$PY" -c "from importlib.metadata import version as v; assert v('$PACKAGE') == '$VERSION'; import pytest, websockets" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check "$PACKAGE==$VERSION" "pytest>=8,<10" "websockets>=15,<17"
fi
if [ "${1:-0.3}" = 0.10 ]; then
    bash "$ROOT/tests/doors/wheel.sh" "$PY"
fi
