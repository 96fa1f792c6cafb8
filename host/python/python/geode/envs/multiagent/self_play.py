"""``SelfPlayVectorEnv``: self-play through many multi-agent episodes, one policy acting for
every agent. Each call hands out the pending turns of all envs as one flat batch of
``(env_index, agent, observation)``, so an LLM policy answers them in one generation call;
episodes that end start over in the same step. Plugin envs step natively in parallel
(``_geode.MultiAgentVec``, each env's errors its own); Python envs step in a loop."""

from typing import Any, Dict, List, Optional, Sequence, Tuple

from geode.envs.multiagent.plugin import PluginMultiAgentEnv

Turn = Tuple[int, str, str]


class SelfPlayVectorEnv:
    """``num_envs`` copies of ``env`` (a multi-agent env: a plugin's or a Python one)."""

    def __init__(self, env, num_envs: int):
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.num_envs = num_envs
        self._native = env._native.vector(num_envs) if isinstance(env, PluginMultiAgentEnv) else None
        self.envs = None if self._native is not None else [env] + [env.spawn() for _ in range(num_envs - 1)]
        self._obs: List[Dict[str, str]] = [{} for _ in range(num_envs)]
        self.episode_returns: List[Dict[str, float]] = [{} for _ in range(num_envs)]
        self.finished: List[Dict[str, float]] = []

    def _active(self) -> List[List[str]]:
        if self._native is not None:
            return self._native.active_agents()
        return [env.active_agents() for env in self.envs]

    def reset(self, seed: Optional[int] = None) -> List[Turn]:
        """Resets every env (env ``i`` gets ``seed + i``); returns the pending turns."""
        if self._native is not None:
            resets = self._native.reset(seed)
        else:
            resets = [env.reset(seed=None if seed is None else seed + i) for i, env in enumerate(self.envs)]
        self._obs = [dict(obs) for obs, _ in resets]
        self.episode_returns = [{} for _ in range(self.num_envs)]
        return self.turns()

    def turns(self) -> List[Turn]:
        """Every agent due to act: ``(env_index, agent, observation)``, env by env."""
        return [(i, agent, self._obs[i][agent]) for i, active in enumerate(self._active()) for agent in active]

    def sample_random_actions(self) -> List[str]:
        """A random legal action for every pending turn, in ``turns()`` order."""
        if self._native is not None:
            per_env = self._native.sample_random_actions()
            return [per_env[i][agent] for i, agent, _ in self.turns()]
        return [self.envs[i].sample_random_action(agent) for i, agent, _ in self.turns()]

    def step(self, actions: Sequence[str]) -> Tuple[List[Turn], List[Dict[str, Any]]]:
        """Applies one action per pending turn (in ``turns()`` order). Returns the next pending
        turns and, per env, what this step gave: ``{"rewards", "terminations", "truncations",
        "infos", "error", "reset"}`` (``error`` is that env's exception, or None)."""
        turns = self.turns()
        if len(actions) != len(turns):
            raise ValueError(f"{len(actions)} actions for {len(turns)} pending turns")
        per_env: List[Dict[str, str]] = [{} for _ in range(self.num_envs)]
        for (i, agent, _), action in zip(turns, actions):
            per_env[i][agent] = action
        results = self._native.step(per_env) if self._native is not None else [self._step_python(i, a) for i, a in enumerate(per_env)]
        report = []
        for i, (step, reset) in enumerate(results):
            entry = {"rewards": {}, "terminations": {}, "truncations": {}, "infos": {}, "error": None, "reset": reset is not None}
            if isinstance(step, BaseException):
                entry["error"] = step
            else:
                obs, rewards, terms, truncs, infos = step
                self._obs[i].update(obs)
                entry.update(rewards=rewards, terminations=terms, truncations=truncs, infos=infos)
                for agent, r in rewards.items():
                    self.episode_returns[i][agent] = self.episode_returns[i].get(agent, 0.0) + r
            if reset is not None:
                if not isinstance(reset, BaseException):
                    self._obs[i] = dict(reset[0])
                if entry["error"] is None:
                    self.finished.append(self.episode_returns[i])
                self.episode_returns[i] = {}
            report.append(entry)
        return self.turns(), report

    def _step_python(self, i: int, actions: Dict[str, str]):
        env = self.envs[i]
        try:
            step = env.step(actions)
        except ValueError as error:
            return error, None
        reset = env.reset() if not env.agents else None
        return step, reset
