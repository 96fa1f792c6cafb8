#!/usr/bin/env bash
# The verifiers door's venv: verifiers 0.4.0 with its own openenv extra, unmodified, with the geode
# wheel. verifiers pins mcp 2.0, which leaves openenv 0.4.1 as the newest OpenEnv it installs with
# (later OpenEnv releases need mcp below 2.0); it is pinned here so pip does not backtrack to find
# it. verifiers' chat harness is a script it prepares with uv: uv comes from the package index too,
# and the tests put this venv's bin first on PATH.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
bash "$HERE/../venv.sh" verifiers \
    "import importlib.metadata as m; assert m.version('verifiers') == '0.4.0'; assert m.version('openenv') == '0.4.1'; m.version('uv')" \
    "verifiers[openenv]==0.4.0" "openenv==0.4.1" "uv>=0.9,<1"
