"""SkyRL-gym's door: every geode id as a ``skyrl_gym`` text env (``BaseTextEnv``), so SkyRL's
trainer plays geode envs with its own generator loop.

Importing this module registers env class ``"geode"`` (the id comes from the dataset row, the
env config or a keyword) and one env class per geode id (``"game:GuessTheNumber-v0-easy"``...)::

    import skyrl_gym, geode.skyrl
    env = skyrl_gym.make("geode", env_config={}, extras={"extra_info": {"env_id": "math:GSM8K", "seed": 3}})
    conversation, metadata = env.init([])          # the env's first observation as a user turn
    out = env.step("\\\\boxed{14}")                 # observations, reward, done, metadata

Options, looked up in this order: a keyword of ``skyrl_gym.make`` (per-id classes set
``env_id``), the row's ``extra_info``, the row's other fields (``extras``), the env config
(``environment.skyrl_gym.<env_class>`` in SkyRL's config): ``env_id``, ``config`` (the env's
overrides), ``wrappers`` (geode wrapper names, e.g. ``["python_tool"]``), ``seed``, ``idx`` (a
dataset env's row). ``max_turns`` comes from ``extras`` (SkyRL's generator sets it) or the env
config; without one the env's own end is the only end. :func:`rows` writes dataset rows.
"""

from typing import Any, Dict, List, Mapping, Optional, Sequence

import geode
from geode import _doors
from geode._extras import require

_skyrl_gym = require("skyrl_gym", "skyrl", "geode.skyrl (SkyRL-gym's door)")
from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput  # noqa: E402

#: The env class that takes the geode id from its options.
ENV_CLASS = "geode"

_OPTIONS = ("env_id", "config", "wrappers", "seed", "idx")


def _lookup(name: str, sources: Sequence[Mapping[str, Any]]) -> Any:
    for source in sources:
        if source is not None and source.get(name) is not None:
            return source[name]
    return None


class GeodeTextEnv(BaseTextEnv):
    """One geode episode as a SkyRL text env: ``init`` resets it, each ``step`` sends the
    model's reply as the action; the observation comes back as a user message, the step's
    reward as the turn's reward, and ``done`` when the env terminates or truncates or the
    turns reach ``max_turns``. ``metadata`` holds the env's info plus ``terminated`` and
    ``truncated``; when done it also holds the final ``observation`` (not sent as a turn)."""

    def __init__(self, env_config: Any = None, extras: Optional[Dict[str, Any]] = None, **options: Any):
        super().__init__()
        unknown = set(options) - set(_OPTIONS) - {"max_turns"}
        if unknown:
            raise TypeError(f"unknown geode.skyrl options {sorted(unknown)}; known: {', '.join(_OPTIONS)}, max_turns")
        extras = dict(extras or {})
        env_config = dict(env_config or {})
        row = extras.get("extra_info") if isinstance(extras.get("extra_info"), Mapping) else {}
        sources = (options, row, extras, env_config)
        self.env_id = _lookup("env_id", sources)
        if self.env_id is None:
            raise ValueError(
                "geode.skyrl needs an env id: put `env_id` in the row's extra_info, in the env "
                "config, or use the per-id env class (skyrl_gym.make('game:GuessTheNumber-v0-easy', ...))"
            )
        self.seed = _lookup("seed", sources)
        self.idx = _lookup("idx", sources)
        max_turns = _lookup("max_turns", (options, extras, env_config))
        if max_turns is not None and (isinstance(max_turns, bool) or int(max_turns) < 1):
            raise ValueError(f"max_turns must be a positive int, got {max_turns!r}")
        self.max_turns = None if max_turns is None else int(max_turns)
        self.env = _doors.make_env(self.env_id, _lookup("config", sources), _lookup("wrappers", sources))
        self.done = False
        self.started = False
        self.episode_return = 0.0
        self.last = {"terminated": False, "truncated": False}

    def init(self, prompt: Optional[List[Dict[str, Any]]] = None):
        """Resets the env; returns the conversation to prompt the model with and the reset's
        info. The env's first observation is the last user message: a prompt that already ends
        with exactly that message (as :func:`rows` writes it) is returned as it is, any other
        prompt (system messages, say) gets it appended."""
        observation, info = _doors.start(self.env, self.seed, self.idx)
        self.turns, self.done, self.started, self.episode_return = 0, False, True, 0.0
        conversation = [dict(m) for m in (prompt or [])]
        turn = {"role": "user", "content": observation}
        if not conversation or conversation[-1] != turn:
            conversation.append(turn)
        return conversation, _doors.plain(info)

    def step(self, action: str) -> BaseTextEnvStepOutput:
        """Sends ``action`` (the model's reply) to the env."""
        if not self.started:
            raise RuntimeError("geode.skyrl: call init(prompt) before step()")
        if self.done:
            raise RuntimeError("geode.skyrl: the episode is over; make a new env for the next one")
        observation, reward, terminated, truncated, info = self.env.step(_doors.action_text(action))
        self.turns += 1
        self.episode_return += float(reward)
        capped = self.max_turns is not None and self.turns >= self.max_turns
        self.done = bool(terminated or truncated or capped)
        metadata = {**_doors.plain(info), "terminated": bool(terminated), "truncated": bool(truncated or capped)}
        self.last = metadata
        if self.done:
            metadata["observation"] = observation
        observations = [] if self.done else [{"role": "user", "content": observation}]
        return BaseTextEnvStepOutput(observations=observations, reward=float(reward), done=self.done,
                                     metadata=metadata, postprocessed_action=None)

    def get_metrics(self) -> Dict[str, Any]:
        """The episode's turns, return (the sum of its rewards) and how it ended."""
        return {"turns": self.turns, "return": self.episode_return,
                "terminated": self.last["terminated"], "truncated": self.last["truncated"]}

    def close(self) -> None:
        """Frees the geode env."""
        self.env.close()


def rows(env_id: str, seeds: Sequence[int] = (), *, idxs: Sequence[int] = (), config: Optional[dict] = None,
         wrappers: Optional[Sequence[str]] = None, system_prompt: Optional[str] = None,
         env_class: str = ENV_CLASS) -> List[Dict[str, Any]]:
    """Dataset rows for SkyRL's trainer, one per seed (or per dataset row in ``idxs``):
    ``prompt`` (an optional system message, then the env's first observation, so SkyRL can
    measure prompt lengths), ``env_class`` and ``extra_info`` with the episode's options."""
    starts = [("seed", s) for s in seeds] + [("idx", i) for i in idxs]
    env = _doors.make_env(env_id, config, wrappers)
    out = []
    try:
        for key, value in starts:
            observation, _ = _doors.start(env, **{key: value})
            prompt = [{"role": "system", "content": system_prompt}] if system_prompt else []
            prompt.append({"role": "user", "content": observation})
            extra = {"env_id": env_id, key: value}
            if config:
                extra["config"] = dict(config)
            if wrappers:
                extra["wrappers"] = list(wrappers)
            out.append({"prompt": prompt, "env_class": env_class, "extra_info": extra})
    finally:
        env.close()
    return out


def register() -> List[str]:
    """Registers ``"geode"`` and every geode id (``geode.list_envs()``) as skyrl_gym env
    classes, skipping names already registered; returns the names it added. Runs on import;
    call it again after ``geode.register`` or ``geode.load_plugin`` adds ids."""
    from skyrl_gym.envs.registration import register as skyrl_register, registry

    added = []
    for name, kwargs in [(ENV_CLASS, {}), *((env_id, {"env_id": env_id}) for env_id in geode.list_envs())]:
        if name not in registry:
            skyrl_register(id=name, entry_point=GeodeTextEnv, kwargs=kwargs)
            added.append(name)
    return added


register()

__all__ = ["ENV_CLASS", "GeodeTextEnv", "register", "rows"]
