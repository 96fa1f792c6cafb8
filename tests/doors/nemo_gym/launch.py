"""Runs one NeMo Gym server as NeMo Gym's own ``run_webserver`` builds it, less the Ray cluster it
starts first (nothing here uses Ray, and a local Ray cluster binds beyond loopback):

    NEMO_GYM_CONFIG_DICT=<global config> NEMO_GYM_CONFIG_PATH=<server name> python launch.py CLASS

NeMo Gym's orchestrator hands its servers the same two variables. CLASS is ``module:Class``.
"""

import importlib
import sys

import uvicorn
from nemo_gym.global_config import get_global_config_dict
from nemo_gym.server_utils import ServerClient


def main(target: str) -> None:
    """Builds the server from NeMo Gym's config, sets up its FastAPI app, serves it on loopback."""
    module, name = target.split(":")
    cls = getattr(importlib.import_module(module), name)
    config = cls.load_config_from_global_config()
    client = ServerClient(head_server_config=ServerClient.load_head_server_config(),
                          global_config_dict=get_global_config_dict())
    server = cls(config=config, server_client=client)
    app = server.setup_webserver()
    server.setup_liveness(app)
    uvicorn.run(app, host=config.host, port=config.port, log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1])
