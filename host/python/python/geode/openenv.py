"""OpenEnv's door from Python: any geode id as an OpenEnv ``Environment``, for code that hosts
envs on OpenEnv's own Python server or builds them in process (an OpenEnv resources server, a
harness that takes an ``Environment`` class). ``geode serve`` is the faster way to put an id on
the network; this module is for the places that want OpenEnv's classes.

    from geode.openenv import create_app
    app = create_app("math:GSM8K", wrappers=["python_tool"])     # a FastAPI app: uvicorn.run(app)

    from geode.openenv import environment_class
    Env = environment_class("game:GuessTheNumber-v0-easy")      # an openenv Environment subclass
    env = Env()
    observation = env.reset(seed=3)
    observation = env.step(TextAction(message="\\\\boxed{50}"))

Actions are :class:`TextAction` (``{"message": text}``, as ``geode serve`` takes them); an
observation is :class:`TextObservation` (``text``, ``terminated``, ``truncated``, ``info``, and
OpenEnv's ``reward`` and ``done``). ``reset`` takes ``seed`` or ``idx`` (a dataset env's row).
Needs the ``openenv`` extra.
"""

from typing import Any, Dict, Mapping, Optional, Sequence

from geode import _doors
from geode._extras import require

_PURPOSE = "geode.openenv (geode envs as OpenEnv Environments)"
_interfaces = require("openenv.core.env_server.interfaces", "openenv", _PURPOSE)
_types = require("openenv.core.env_server.types", "openenv", _PURPOSE)

__all__ = ["TextAction", "TextObservation", "create_app", "environment_class"]


class TextAction(_types.Action):
    """The model's text, as the env takes it."""

    message: str


class TextObservation(_types.Observation):
    """What the env shows after a reset or a step."""

    text: str = ""
    terminated: bool = False
    truncated: bool = False
    info: Dict[str, Any] = {}


def environment_class(env_id: str, config: Optional[Mapping[str, Any]] = None,
                      wrappers: Optional[Sequence[str]] = None) -> type:
    """An OpenEnv ``Environment`` subclass whose instances each play their own ``env_id``
    (made with ``config`` overrides and ``wrappers``). Bad options fail here, not at the first
    session: one env is made and closed to check them."""
    _doors.make_env(env_id, config, wrappers).close()

    class GeodeEnvironment(_interfaces.Environment):
        SUPPORTS_CONCURRENT_SESSIONS = True

        def __init__(self):
            super().__init__()
            self._env = _doors.make_env(env_id, config, wrappers)
            self._state = _types.State(episode_id=None, step_count=0)

        def reset(self, seed: Optional[int] = None, episode_id: Optional[str] = None,
                  idx: Optional[int] = None, **_: Any) -> TextObservation:
            text, info = _doors.start(self._env, seed=seed, idx=idx)
            self._state = _types.State(episode_id=episode_id, step_count=0)
            return TextObservation(text=text, info=_doors.plain(info))

        def step(self, action: TextAction, timeout_s: Optional[float] = None,
                 **_: Any) -> TextObservation:
            message = action.message if isinstance(action, TextAction) else action
            text, reward, terminated, truncated, info = self._env.step(_doors.action_text(message))
            self._state.step_count += 1
            return TextObservation(text=text, reward=float(reward), done=bool(terminated or truncated),
                                   terminated=bool(terminated), truncated=bool(truncated),
                                   info=_doors.plain(info))

        @property
        def state(self):
            return self._state

        def close(self) -> None:
            self._env.close()

    GeodeEnvironment.__name__ = GeodeEnvironment.__qualname__ = "GeodeEnvironment"
    GeodeEnvironment.__doc__ = f"geode's ``{env_id}`` as an OpenEnv Environment."
    return GeodeEnvironment


def create_app(env_id: str, config: Optional[Mapping[str, Any]] = None,
               wrappers: Optional[Sequence[str]] = None, max_concurrent_envs: int = 256):
    """OpenEnv's FastAPI app (its ``create_app``) serving ``env_id``: one env per session."""
    http_server = require("openenv.core.env_server.http_server", "openenv", _PURPOSE)
    return http_server.create_app(environment_class(env_id, config, wrappers), TextAction,
                                  TextObservation, env_name=env_id,
                                  max_concurrent_envs=max_concurrent_envs)
