"""``SingleAgentEnv``: one agent of a multi-agent env as a plain single-agent env, the other
agents played by a fixed policy (a Python callable or the built-in ``"random"``, which plays
each agent's random legal action). Train one seat against a fixed opponent with any
single-agent trainer."""

from typing import Callable, Dict, Optional, Union

from geode.core import Env

Policy = Callable[[str, str], str]


def _resolve(env, policy: Union[str, Policy]) -> Policy:
    if callable(policy):
        return policy
    if policy == "random":
        return lambda agent, observation: env.sample_random_action(agent)
    raise ValueError(f"Unknown policy {policy!r}: pass a callable (agent, observation) -> action or 'random'")


class SingleAgentEnv(Env):
    """Agent ``agent`` of ``env`` as a single-agent env. ``opponents``: one policy for every
    other agent, or a dict of policies by agent (missing agents play ``"random"``); a policy
    is called as ``policy(agent, observation)`` and returns the action text.

    ``reset`` and ``step`` play the other agents until it is ``agent``'s turn again (or its
    episode is over); the reward is ``agent``'s rewards summed over those steps."""

    def __init__(self, env, agent: str, opponents: Union[str, Policy, Dict[str, Union[str, Policy]]] = "random"):
        super().__init__()
        if agent not in env.possible_agents:
            raise ValueError(f"Unknown agent {agent} (agents: {', '.join(env.possible_agents)})")
        self.env = env
        self.agent = agent
        if isinstance(opponents, dict):
            self._policies = {a: _resolve(env, p) for a, p in opponents.items()}
            self._default = _resolve(env, "random")
        else:
            self._policies = {}
            self._default = _resolve(env, opponents)
        self._observations: Dict[str, str] = {}

    def _policy(self, agent: str) -> Policy:
        return self._policies.get(agent, self._default)

    def _play_others(self, step_out, pending_action: Optional[str]):
        """Steps until ``agent`` acts next or leaves; returns its last outputs and summed reward."""
        observation, reward, terminated, truncated, info = step_out
        while self.agent in self.env.agents:
            active = self.env.active_agents()
            if not active or (self.agent in active and pending_action is None):
                break
            actions = {}
            for other in active:
                if other == self.agent:
                    actions[other] = pending_action
                else:
                    actions[other] = self._policy(other)(other, self.env.observe(other))
            pending_action = None
            obs, rewards, terms, truncs, infos = self.env.step(actions)
            reward += rewards.get(self.agent, 0.0)
            observation = obs.get(self.agent, observation)
            terminated = terms.get(self.agent, terminated)
            truncated = truncs.get(self.agent, truncated)
            info = infos.get(self.agent, info)
        return observation, reward, terminated, truncated, info

    def reset(self, seed: Optional[int] = None):
        """Starts an episode and plays the others until ``agent``'s first turn."""
        observations, infos = self.env.reset(seed=seed)
        out = self._play_others((observations[self.agent], 0.0, False, False, infos[self.agent]), None)
        return out[0], out[4]

    def step(self, action: str):
        """Plays ``action`` for ``agent``, then the others until its next turn."""
        if self.agent not in self.env.agents:
            raise ValueError(f"Agent {self.agent} is no longer in the episode; call reset")
        return self._play_others(("", 0.0, False, False, {}), action)

    def sample_random_action(self) -> str:
        """A random legal action for ``agent``."""
        return self.env.sample_random_action(self.agent)
