#!/usr/bin/env bash
# NeMo Gym's door venv: the dependencies its resources server, gymnasium agent and vLLM-style model
# server import, then nemo-gym 0.4.0 itself, unmodified, without its other dependencies (mlflow,
# datasets, the sandboxes) and past its Requires-Python >=3.12: its server code runs on 3.11.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
bash "$ROOT/tests/doors/venv.sh" nemo_gym "import ray, wandb, anthropic, fastapi, hydra" \
    "openai<=2.7.2" "anthropic<=0.109.2" "ray>=2.55.1" "aiohttp>=3.14.1" "urllib3>=2.7.0" \
    "python-multipart>=0.0.22" pydantic fastapi uvicorn uvloop itsdangerous omegaconf hydra-core \
    orjson requests devtools rich wandb pandas yappi gprof2dot pydot psutil tqdm
PY="$ROOT/target/doors/nemo_gym/venv/bin/python"
if ! "$PY" -c "import nemo_gym, resources_servers.gymnasium" 2>/dev/null; then
    "$PY" -m pip install -q --disable-pip-version-check --no-deps --ignore-requires-python "nemo-gym==0.4.0"
fi
