#!/usr/bin/env bash
# Installs the Debian packages the test suite uses beyond Rust and Python: Chromium, which
# tests/python/test_eval.py opens `geode eval`'s report.html in (headless). Idempotent: does
# nothing when chromium is already there; needs root (or sudo) to install it.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" = 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "system-deps.sh: chromium is missing and this user cannot install Debian packages;" \
         "install chromium (the report test needs it)" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
