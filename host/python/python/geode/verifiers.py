"""verifiers' door: geode envs as a ``verifiers.v1`` taskset and env, stepped in this process
(no server). Each task is one episode (an env id, its config and wrappers, a seed or a dataset
row); its prompt is the env's first observation, the model answers, and the env's ``run`` sends
each reply to the geode env as the action and the next observation back as the user's turn until
the env terminates or truncates (or ``max_turns``). The rewards' sum is the trace's
``geode_reward``; ``trace.info["geode"]`` keeps the per-step rewards and the final observation.

The taskset id is ``geode``: verifiers finds a taskset package by the Taskset and Env classes
its ``__all__`` names, and ``geode`` names these two (imported from here on first use) when
verifiers is installed::

    import geode.verifiers
    env = {"taskset": {"id": "geode", "env_id": "game:GuessTheNumber-v0-easy", "num_tasks": 8},
           "player": {"harness": {"id": "null"}, "runtime": {"type": "subprocess"}}}

:func:`env_config` writes that block. geode envs served by ``geode serve`` also work through
verifiers' own ``openenv`` taskset (``base_url``); this door skips the server.
"""

import asyncio
import itertools
from typing import Any, Dict, Iterator, List, Optional

import geode
from geode import _doors
from geode._extras import require

vf = require("verifiers.v1", "verifiers", "geode.verifiers (verifiers' door)")
from pydantic import Field, model_validator  # noqa: E402 - verifiers brings pydantic

#: The taskset id verifiers resolves to this module's classes.
TASKSET_ID = "geode"


class GeodeConfig(vf.TasksetConfig):
    """Which episodes the taskset holds (``--env.taskset.*``)."""

    env_id: str
    """The geode id every task plays."""
    config: Dict[str, Any] = Field(default_factory=dict)
    """The env's config overrides (``geode.make`` keywords)."""
    wrappers: List[str] = Field(default_factory=list)
    """geode wrapper names applied in order (``python_tool``...)."""
    seeds: Optional[List[int]] = None
    """One task per seed."""
    rows: Optional[List[int]] = None
    """One task per row of a dataset env's walk (``reset(idx=row)``)."""
    num_tasks: Optional[int] = Field(None, ge=1)
    """Without seeds or rows: seeds ``0..num_tasks-1``; unset, the seeds never end."""
    instructions: Optional[str] = None
    """A system prompt for every task."""
    max_turns: Optional[int] = Field(None, ge=1)
    """Ends an episode after this many env steps (truncated); unset, only the env ends it."""

    @model_validator(mode="after")
    def _one_source(self) -> "GeodeConfig":
        if self.seeds is not None and self.rows is not None:
            raise ValueError("give `seeds` or `rows`, not both")
        return self


class GeodeData(vf.TaskData):
    """One episode: the env and how it starts."""

    env_id: str
    config: Dict[str, Any] = Field(default_factory=dict)
    wrappers: List[str] = Field(default_factory=list)
    seed: Optional[int] = None
    row: Optional[int] = None
    max_turns: Optional[int] = None


class GeodeTask(vf.Task[GeodeData]):
    """A geode episode; scored by :class:`GeodeEnv` as it plays."""


class GeodeEnvConfig(vf.EnvConfig):
    """One seat, ``player``: the model answering the env."""

    player: vf.AgentConfig = vf.AgentConfig()


class GeodeEnv(vf.Env[GeodeEnvConfig]):
    """Plays a :class:`GeodeTask`: the geode env is the run's user."""

    async def run(self, task, agents) -> None:
        """One episode: reset, then reply / step until the env (or ``max_turns``) ends it."""
        data = task.data
        env = await asyncio.to_thread(_doors.make_env, data.env_id, data.config, data.wrappers)
        record: Dict[str, Any] = {"rewards": [], "terminated": False, "truncated": False}
        try:
            first, _ = await asyncio.to_thread(_doors.start, env, data.seed, data.row)
            if first != data.prompt:
                raise RuntimeError(f"{data.env_id} began differently from the task's prompt (is it deterministic?)")
            async with agents.player.interaction(task) as interaction:
                segment = await interaction.turn()
                while not segment.terminated:
                    step = await asyncio.to_thread(env.step, segment.last_reply)
                    observation, reward, terminated, truncated, _ = step
                    record["rewards"].append(float(reward))
                    capped = data.max_turns is not None and len(record["rewards"]) >= data.max_turns
                    if terminated or truncated or capped:
                        record.update(terminated=bool(terminated), truncated=bool(truncated or capped),
                                      final_observation=observation)
                        break
                    segment = await interaction.turn(observation)
        finally:
            await asyncio.to_thread(env.close)
        trace = interaction.trace
        trace.record_reward("geode_reward", sum(record["rewards"]))
        trace.record_metric("geode_steps", len(record["rewards"]))
        trace.info["geode"] = record


class GeodeTaskset(vf.Taskset[GeodeTask, GeodeConfig]):
    """The episodes :class:`GeodeConfig` names, each prompted with the env's first observation."""

    def __init__(self, config: GeodeConfig) -> None:
        super().__init__(config)
        self.INFINITE = config.seeds is None and config.rows is None and config.num_tasks is None

    def _starts(self) -> Iterator[Dict[str, int]]:
        config = self.config
        if config.rows is not None:
            return ({"row": row} for row in config.rows)
        seeds = config.seeds if config.seeds is not None else (
            range(config.num_tasks) if config.num_tasks is not None else itertools.count())
        return ({"seed": seed} for seed in seeds)

    def load(self) -> Iterator[GeodeTask]:
        """One task per start, lazily (an endless seed walk stays lazy)."""
        config = self.config
        env = _doors.make_env(config.env_id, config.config, config.wrappers)
        try:
            for start in self._starts():
                prompt, _ = _doors.start(env, start.get("seed"), start.get("row"))
                key, value = next(iter(start.items()))
                yield GeodeTask(
                    GeodeData(name=f"{config.env_id}#{key}={value}", prompt=prompt,
                              system_prompt=config.instructions, env_id=config.env_id,
                              config=config.config, wrappers=config.wrappers,
                              max_turns=config.max_turns, **start),
                    config.task,
                )
        finally:
            env.close()


def env_config(env_id: str, *, harness: str = "null", runtime: str = "subprocess",
               **taskset: Any) -> Dict[str, Any]:
    """The ``env`` block of a verifiers run over geode id ``env_id`` (``taskset`` holds the
    other :class:`GeodeConfig` fields). Its seat defaults to verifiers' tool-less chat harness
    (``null``) in a local subprocess: geode's tools run inside the env, not in the agent."""
    return {"taskset": {"id": TASKSET_ID, "env_id": env_id, **taskset},
            "player": {"harness": {"id": harness}, "runtime": {"type": runtime}}}


__all__ = ["GeodeConfig", "GeodeData", "GeodeEnv", "GeodeEnvConfig", "GeodeTask", "GeodeTaskset",
           "TASKSET_ID", "env_config"]

