"""TRL's door: any geode id as an environment for ``GRPOTrainer(environment_factory=...)``.

TRL's GRPO trainer takes a zero-argument ``environment_factory`` and makes one environment per
rollout. Before generation it calls the environment's ``reset(**row)`` with every column of the
dataset row and appends what ``reset`` returns to the prompt's last user message; the
environment's other public methods become tools the model calls during generation; its
``get_reward()`` scores the finished rollout. Here every geode env, in process (no server), is
that environment: ``reset`` resets it with the row's ``seed``, the one tool ``step`` sends the
model's action text (a guess, an answer, a ``<python>`` call for ``tool:python``), and
``get_reward`` is the episode's summed reward::

    from geode.trl import environment_factory, prompts
    trainer = GRPOTrainer(model=..., train_dataset=Dataset.from_list(prompts(64)),
                          environment_factory=environment_factory("game:GuessTheNumber-v0-easy"))

Needs the ``trl`` extra (TRL itself needs torch; nothing here does). geode's native module takes
no static TLS, so it loads beside torch's OpenMP runtime in either order.
"""

from typing import Any, Dict, List, Optional

from geode._extras import require

require("trl", "trl", "geode.trl (geode envs for TRL's GRPOTrainer environment_factory)")

import geode  # noqa: E402

__all__ = ["EPISODE_OVER", "INSTRUCTION", "GeodeEnvironment", "environment_factory", "prompts"]

#: What ``step`` appends to the last observation of an episode.
EPISODE_OVER = "\n[The episode is over.]"
#: The default user turn of :func:`prompts`; ``reset`` appends the env's first observation to it.
INSTRUCTION = "Act in the environment below by calling the `step` tool with your action.\n\n"


class GeodeEnvironment:
    """One rollout's environment for TRL: a geode env made once, reset for every rollout.

    Its public methods are exactly what TRL's environment contract reads: ``reset``, the tool
    ``step``, and ``get_reward`` (TRL turns every other public method into a tool)."""

    def __init__(self, env_id: str, **make_kwargs: Any):
        self._env = geode.make(env_id, **make_kwargs)
        self._reward = 0.0
        self._done = True

    def reset(self, seed: Optional[int] = None, **row: Any) -> str:
        """Resets the env with the row's ``seed`` (other columns are ignored) and returns its first
        observation, which TRL appends to the prompt."""
        observation, _ = self._env.reset(seed=seed)
        self._reward, self._done = 0.0, False
        return str(observation)

    def step(self, action: str) -> str:
        """Takes one action in the environment and returns what the environment answers.

        Args:
            action: The action, as text: for example a guess or an answer such as \\boxed{42}, or code to run wrapped in <python></python> tags.

        Returns:
            The environment's next observation.
        """
        if self._done:
            raise ValueError("the episode is over: no more actions are taken")
        observation, reward, terminated, truncated, _ = self._env.step(action)
        self._reward += float(reward)
        self._done = bool(terminated or truncated)
        return str(observation) + (EPISODE_OVER if self._done else "")

    def get_reward(self) -> float:
        """The rollout's reward: the sum of the env's rewards since ``reset``."""
        return self._reward


class environment_factory:  # noqa: N801 - named for the GRPOTrainer argument it is passed as
    """A zero-argument, picklable factory of :class:`GeodeEnvironment` for ``env_id``; the keywords
    go to ``geode.make`` (config overrides, ``wrappers=["python_tool"]``, ``limits``, ...)."""

    def __init__(self, env_id: str, **make_kwargs: Any):
        self.env_id = env_id
        self.make_kwargs = make_kwargs

    def __call__(self) -> GeodeEnvironment:
        """A fresh environment."""
        return GeodeEnvironment(self.env_id, **self.make_kwargs)

    def __repr__(self) -> str:
        return f"environment_factory({self.env_id!r}, **{self.make_kwargs!r})"


def prompts(count: int, first_seed: int = 0, instruction: str = INSTRUCTION) -> List[Dict[str, Any]]:
    """``count`` dataset rows for TRL (``datasets.Dataset.from_list``): a conversational ``prompt``
    holding ``instruction`` and consecutive ``seed`` values from ``first_seed``."""
    return [{"prompt": [{"role": "user", "content": instruction}], "seed": first_seed + index}
            for index in range(count)]
