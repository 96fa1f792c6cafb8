#!/usr/bin/env bash
# Builds the geode Python package and installs it into target/py-venv (created on first use,
# with maturin, numpy, pytest, the `datasets` library the drop-in tests load rows with, the
# `mcp` package the MCP tool tests write a server with, reasoning-gym, the `rg` extra, pillow,
# the `vision` extra, and ray, the `ray` extra), and target/openenv-venv (openenv-core, host/serve/openenv-venv.sh),
# then compiles every built-in component ahead (`python -m geode.precompile`).
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
if ! "$PY" -c "import maturin, numpy" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check "maturin>=1.16,<2" numpy
fi

# What the tests need besides the wheel comes from the package indexes (mostly waiting on
# downloads): installed in the background while maturin compiles, its output in
# target/py-deps.log.
python_deps() {
    if ! "$PY" -c "import pytest, datasets, mcp, uvicorn" 2>/dev/null; then
        "$PY" -m pip install -q --disable-pip-version-check pytest "datasets>=3,<5" \
            "mcp>=1.10,<3" uvicorn
    fi
    # The `rg` extra (GEM's ReasoningGym ids run in the host's Python): tests/python/test_rg.py
    # replays GEM's recorded rg episodes with it.
    if ! "$PY" -c "import reasoning_gym" 2>/dev/null; then
        "$PY" -m pip install -q --disable-pip-version-check "reasoning-gym==0.1.23"
    fi
    # The `vision` extra (math:Geometry3K's pictures are PIL images): tests/python/test_geometry3k.py.
    if ! "$PY" -c "import PIL" 2>/dev/null; then
        "$PY" -m pip install -q --disable-pip-version-check "pillow>=10"
    fi
    # The `ray` extra: tests/python/test_ray.py runs geode.ray on a local two-node Ray cluster.
    if ! "$PY" -c "import ray" 2>/dev/null; then
        "$PY" -m pip install -q --disable-pip-version-check "ray==2.60.0"
    fi
    # Debian packages the tests use (Chromium for the eval report test).
    bash "$ROOT/host/python/system-deps.sh"
    # OpenEnv's client and server live in a venv of their own (tests/openenv, benches/serve_load.py).
    bash "$ROOT/host/serve/openenv-venv.sh"
}
DEPS_LOG="$ROOT/target/py-deps.log"
python_deps > "$DEPS_LOG" 2>&1 &
DEPS=$!

rm -rf "$WHEELS"
LOG="$ROOT/target/py-build.log"
if ! (cd "$ROOT" && CARGO_TARGET_DIR="$ROOT/target" "$VENV/bin/maturin" build --release \
        -m host/python/Cargo.toml -i "$PY" -o "$WHEELS") >"$LOG" 2>&1; then
    cat "$LOG" >&2
    echo "dev-install.sh: building the geode wheel failed (log: $LOG)" >&2
    wait "$DEPS" || true
    exit 1
fi
if ! wait "$DEPS"; then
    cat "$DEPS_LOG" >&2
    echo "dev-install.sh: installing the test dependencies failed (log: $DEPS_LOG)" >&2
    exit 1
fi
# The reinstall replaces the package directory; its components compiled ahead are kept aside and
# put back, so the step below compiles only what changed.
SITE="$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')"
KEPT="$ROOT/target/py-precompiled.kept"
rm -rf "$KEPT"
if [ -d "$SITE/geode/geode-precompiled" ]; then
    mv "$SITE/geode/geode-precompiled" "$KEPT"
fi
"$PY" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall "$WHEELS"/geode-*.whl
if [ -d "$KEPT" ]; then
    mv "$KEPT" "$SITE/geode/geode-precompiled"
fi
# Every built-in component compiled ahead (geode/geode-precompiled), as a user's install step
# would do: no env, tool or grader of the package waits for a compile on first use.
"$PY" -m geode.precompile | tail -1
