"""GEM's ``EpisodeTrackingWrapper`` in Python (for stacks above Python wrappers; over a native
env the ``episode_tracking`` factory uses the native layer)."""

from typing import Optional

from geode.core import Env, EnvWrapper


class EpisodeTrackingWrapper(EnvWrapper):
    """Adds ``step_counter`` and ``cumulative_rewards`` to every info, and the previous
    episode's values on reset. Meant as the outermost wrapper."""

    def __init__(self, env: Env):
        super().__init__(env)
        self.step_counter = 0
        self.cumulative_rewards = 0.0

    def step(self, action):
        """Steps the env and counts."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.step_counter += 1
        self.cumulative_rewards += reward
        info["step_counter"] = self.step_counter
        info["cumulative_rewards"] = self.cumulative_rewards
        return obs, reward, terminated, truncated, info

    def reset(self, seed: Optional[int] = None):
        """Resets the env and the counters."""
        prev_steps, prev_rewards = self.step_counter, self.cumulative_rewards
        obs, info = self.env.reset(seed=seed)
        self.step_counter = 0
        self.cumulative_rewards = 0.0
        info["step_counter"] = 0
        info["prev_ep_step_counter"] = prev_steps
        info["cumulative_rewards"] = 0.0
        info["prev_ep_cumulative_rewards"] = prev_rewards
        return obs, info
