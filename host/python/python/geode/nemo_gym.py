"""NeMo Gym's door: any geode id as a NeMo Gym resources server.

NeMo Gym's resources servers come in two shapes: ``SimpleResourcesServer`` (tool endpoints plus one
``/verify`` that scores a finished rollout) and ``GymnasiumServer`` (``/reset`` and ``/step``, the
Gymnasium 5-tuple, driven turn by turn by its ``gymnasium_agent``). A geode env already speaks the
second, so :class:`GeodeResourcesServer` is a ``GymnasiumServer``: each rollout (NeMo Gym session)
gets its own env, ``/reset`` resets it with the dataset row's ``seed``, and ``/step`` steps it with
the text of the model's turn. Rewards, termination and observations are geode's own, unchanged.
(NeMo Gym's OpenEnv resources server is the other documented route, but it builds an OpenEnv
``Environment`` class in its own process, calls ``reset`` with a fixed config, never with a row's
seed, and sums rewards into ``/verify``; this one needs no OpenEnv at all.)

A NeMo Gym config names it like any resources server::

    geode_guess:
      resources_servers:
        geode:
          entrypoint: app.py      # a file holding: from geode.nemo_gym import main; main()
          domain: games
          env_id: game:GuessTheNumber-v0-easy
          env_kwargs: {max_turns: 8}

and pairs it with NeMo Gym's ``gymnasium_agent``. ``python -m geode.nemo_gym`` is that entry point.
Needs the ``nemo-gym`` extra (tests/doors/nemo_gym runs it on nemo-gym 0.7.0; 0.4.0 passes too).
"""

import asyncio
import json
from typing import Any, Dict, Optional, Tuple

from geode._extras import require

_PURPOSE = "geode.nemo_gym (a geode env as a NeMo Gym resources server)"
require("nemo_gym.base_resources_server", "nemo-gym", _PURPOSE)
_gymnasium = require("resources_servers.gymnasium", "nemo-gym", _PURPOSE)

from nemo_gym.base_resources_server import BaseResourcesServerConfig  # noqa: E402
from nemo_gym.openai_utils import NeMoGymResponse  # noqa: E402

import geode  # noqa: E402

__all__ = ["GeodeResourcesServer", "GeodeResourcesServerConfig", "action_text", "main"]


class GeodeResourcesServerConfig(BaseResourcesServerConfig):
    """The server's config: which geode id each rollout makes, and the keywords for
    ``geode.make`` (config overrides, ``wrappers`` such as ``["python_tool"]``, ``limits``)."""

    env_id: str
    env_kwargs: Dict[str, Any] = {}


def action_text(response: NeMoGymResponse) -> str:
    """The action a geode env gets from one model turn: the text of its output messages, joined.
    geode's tools (``tool:python`` and the rest) read their calls from that text."""
    return _gymnasium.extract_text(response)


def _jsonable(info: Dict[str, Any]) -> Dict[str, Any]:
    """``info`` as plain JSON values (NumPy scalars, tuples and the like become JSON's own)."""
    return json.loads(json.dumps(info, default=lambda value: getattr(value, "tolist", lambda: str(value))()))


def _text(observation: Any) -> Optional[str]:
    return None if observation is None else str(observation)


class GeodeResourcesServer(_gymnasium.GymnasiumServer):
    """A ``GymnasiumServer`` whose every session is a fresh ``geode.make(env_id, **env_kwargs)``.

    ``reset`` takes ``seed`` from the dataset row (NeMo Gym passes the row's extra fields as
    ``metadata``); ``step`` gives the env :func:`action_text` of the model's turn and returns geode's
    ``(observation, reward, terminated, truncated, info)``. Env calls run off the event loop."""

    config: GeodeResourcesServerConfig

    async def reset(self, metadata: dict, session_id: Optional[str] = None) -> Tuple[Optional[str], dict]:
        """Makes this session's env (closing one it had) and resets it with ``metadata["seed"]``."""
        await self.close_session(session_id)
        env = await asyncio.to_thread(geode.make, self.config.env_id, **self.config.env_kwargs)
        self.session_state[session_id] = env
        observation, info = await asyncio.to_thread(env.reset, seed=metadata.get("seed"))
        return _text(observation), _jsonable(info)

    async def step(
        self, action: NeMoGymResponse, metadata: dict, session_id: Optional[str] = None
    ) -> Tuple[Optional[str], float, bool, bool, dict]:
        """Steps this session's env with the model turn's text."""
        env = self.session_state.get(session_id)
        if env is None:
            raise ValueError(f"session {session_id!r} has no env: call /reset first")
        observation, reward, terminated, truncated, info = await asyncio.to_thread(env.step, action_text(action))
        return _text(observation), float(reward), bool(terminated), bool(truncated), _jsonable(info)

    async def close_session(self, session_id: Optional[str]) -> None:
        """Closes and forgets this session's env (NeMo Gym calls it when an episode ends)."""
        env = self.session_state.pop(session_id, None)
        if env is not None:
            await asyncio.to_thread(env.close)


def main() -> None:
    """NeMo Gym's entry point for this server: run it as NeMo Gym runs each of its servers, with the
    config NeMo Gym hands the process."""
    GeodeResourcesServer.run_webserver()


if __name__ == "__main__":
    main()
