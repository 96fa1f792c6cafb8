#!/usr/bin/env bash
# The SkyRL-gym door's venv: skyrl-gym 0.4.0, unmodified, with the geode wheel.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
bash "$HERE/../venv.sh" skyrl \
    "import importlib.metadata as m; assert m.version('skyrl-gym') == '0.4.0'" \
    "skyrl-gym==0.4.0"
