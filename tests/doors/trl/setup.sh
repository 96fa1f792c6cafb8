#!/usr/bin/env bash
# TRL's door venv without torch (GBs): transformers, datasets and jinja2, which TRL's chat-template
# code imports, then trl 1.16.0 itself, unmodified, without its torch-bound dependencies
# (accelerate, torch). GRPOTrainer itself needs torch: examples/trl_grpo.py runs it where torch is.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
bash "$ROOT/tests/doors/venv.sh" trl "import transformers, datasets, jinja2" \
    "transformers==5.24.0" "datasets>=4.7.0" jinja2
PY="$ROOT/target/doors/trl/venv/bin/python"
if ! "$PY" -c "import trl.chat_template_utils" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check --no-deps "trl==1.16.0"
fi
