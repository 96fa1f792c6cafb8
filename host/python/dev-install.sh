#!/usr/bin/env bash
# Builds the geode Python package and installs it into target/py-venv (created on first use,
# with maturin, numpy, pytest, the `datasets` library the drop-in tests load rows with, the
# `mcp` package the MCP tool tests write a server with, and reasoning-gym, the `rg` extra).
# Idempotent and quiet; reuses the workspace target directory,
# so wasmtime is not rebuilt when `cargo build --release` already ran.
#
#   bash host/python/dev-install.sh && target/py-venv/bin/python -c "import geode as gem"
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VENV="$ROOT/target/py-venv"
PY="$VENV/bin/python"
WHEELS="$ROOT/target/py-wheels"

if [ ! -x "$PY" ]; then
    "${PYTHON:-python3}" -m venv "$VENV"
fi
if ! "$PY" -c "import maturin, numpy, pytest, datasets, mcp, uvicorn" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check "maturin>=1.16,<2" numpy pytest "datasets>=3,<5" \
        "mcp>=1.10,<3" uvicorn
fi
# The `rg` extra (GEM's ReasoningGym ids run in the host's Python): tests/python/test_rg.py
# replays GEM's recorded rg episodes with it.
if ! "$PY" -c "import reasoning_gym" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check "reasoning-gym==0.1.23"
fi

rm -rf "$WHEELS"
LOG="$ROOT/target/py-build.log"
if ! (cd "$ROOT" && CARGO_TARGET_DIR="$ROOT/target" "$VENV/bin/maturin" build --release \
        -m host/python/Cargo.toml -i "$PY" -o "$WHEELS") >"$LOG" 2>&1; then
    cat "$LOG" >&2
    echo "dev-install.sh: building the geode wheel failed (log: $LOG)" >&2
    exit 1
fi
"$PY" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall "$WHEELS"/geode-*.whl
