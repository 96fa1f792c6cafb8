#!/usr/bin/env bash
# NeMo Gym's door venv: the dependencies its resources server, gymnasium agent and vLLM-style model
# server import (at nemo-gym 0.7.0's pins), then nemo-gym 0.7.0 itself, unmodified, without its
# other dependencies (mlflow, datasets, wandb's extras, the sandboxes) and past its
# Requires-Python >=3.13.14: the server code these tests run works on this Python (3.11).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
VERSION=0.7.0
bash "$ROOT/tests/doors/venv.sh" nemo_gym "import ray, wandb, anthropic, hydra, openai; assert openai.__version__ == '2.44.0'" \
    "openai==2.44.0" "anthropic<=0.109.2" "ray>=2.58.0" "aiohttp>=3.14.4" "urllib3>=2.8.0" \
    "python-multipart>=0.0.27" "anyio>=4.15.1" "mcp>=1.28.1,<2" "orjson>=3.11.6" "scipy>=1.14.1" \
    pydantic fastapi uvicorn uvloop httptools itsdangerous omegaconf hydra-core requests devtools rich \
    wandb pandas yappi pydot psutil tqdm jinja2
PY="$ROOT/target/doors/nemo_gym/venv/bin/python"
if ! "$PY" -c "import importlib.metadata as m; assert m.version('nemo-gym') == '$VERSION'" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check --no-deps --ignore-requires-python "nemo-gym==$VERSION"
fi
