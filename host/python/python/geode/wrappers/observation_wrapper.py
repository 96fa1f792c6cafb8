"""GEM's ``ObservationWrapper`` in Python: folds the episode so far into each observation, as
plain text or through a tokenizer's chat template. ``ObservationHistory`` holds the logic
without an env, so vector envs can apply it to natively stepped slots."""

from collections import deque
from typing import Any, Optional

from geode.core import Env, EnvWrapper


def maybe_add_new_line(text: str) -> str:
    """``text`` ending in a newline (unless empty)."""
    if text and not text.endswith("\n"):
        return text + "\n"
    return text


class ObservationHistory:
    """One episode's observations and actions, rendered as GEM's ``ObservationWrapper`` does."""

    def __init__(
        self,
        include_action: bool = True,
        include_chat_template: bool = True,
        apply_chat_template_on_reset: bool = False,
        max_history_length: Optional[int] = None,
        tokenizer=None,
    ):
        if include_chat_template and apply_chat_template_on_reset:
            raise ValueError(
                "include_chat_template and apply_chat_template_on_reset cannot both be True at the same time."
            )
        if (include_chat_template or apply_chat_template_on_reset) and tokenizer is None:
            raise ValueError("a tokenizer (with apply_chat_template) must be provided for chat templates")
        if include_chat_template and not include_action:
            raise ValueError("actions must be included when using a chat template")
        self.include_action = include_action
        self.include_chat_template = include_chat_template
        self.apply_chat_template_on_reset = apply_chat_template_on_reset
        self.tokenizer = tokenizer
        self.obs_queue = deque(maxlen=max_history_length + 1 if max_history_length else None)
        self.act_queue = deque(maxlen=max_history_length)

    def on_reset(self, obs: str, info: dict[str, Any]) -> str:
        """Starts a new episode from its first observation; returns the rendered observation."""
        self.act_queue.clear()
        self.obs_queue.clear()
        if self.apply_chat_template_on_reset:
            obs = self.tokenizer.apply_chat_template(
                [{"role": "user", "content": obs}], tokenize=False, add_generation_prompt=True
            )
        self.obs_queue.append((obs, info.get("use_tool", False)))
        return self.render(info)

    def on_step(self, action: str, obs: str, info: dict[str, Any]) -> str:
        """Records one step; returns the rendered observation."""
        self.act_queue.append(info["parsed_action"] if "parsed_action" in info else action)
        self.obs_queue.append((obs, info.get("use_tool", False)))
        return self.render(info)

    def render(self, info: dict[str, Any]) -> str:
        """The observation the agent sees now."""
        if not self.include_action:
            wrapped = "".join(maybe_add_new_line(o) for o, _ in self.obs_queue)
        elif self.include_chat_template:
            *past, (last, last_tool) = self.obs_queue
            messages = []
            for (o, use_tool), a in zip(past, self.act_queue):
                messages.append({"role": "tool" if use_tool else "user", "content": o})
                messages.append({"role": "assistant", "content": a})
            messages.append({"role": "tool" if last_tool else "user", "content": last})
            wrapped = self.tokenizer.apply_chat_template(
                messages, tokenize=False, add_generation_prompt=True
            )
        else:
            *past, (last, _) = self.obs_queue
            wrapped = ""
            for (o, _), a in zip(past, self.act_queue):
                wrapped += maybe_add_new_line(o)
                wrapped += maybe_add_new_line(a)
            wrapped += maybe_add_new_line(last)
        if "prefix" in info:
            wrapped = info["prefix"] + wrapped
        if "suffix" in info:
            wrapped = wrapped + info["suffix"]
        return wrapped


class ObservationWrapper(EnvWrapper):
    """GEM's ``ObservationWrapper`` (same arguments): the observation becomes the episode's
    history, optionally with actions, optionally through ``tokenizer.apply_chat_template``."""

    def __init__(
        self,
        env: Env,
        include_action: bool = True,
        include_chat_template: bool = True,
        apply_chat_template_on_reset: bool = False,
        max_history_length: Optional[int] = None,
        tokenizer=None,
    ):
        super().__init__(env)
        self.history = ObservationHistory(
            include_action, include_chat_template, apply_chat_template_on_reset, max_history_length, tokenizer
        )
        self.include_action = include_action
        self.include_chat_template = include_chat_template
        self.apply_chat_template_on_reset = apply_chat_template_on_reset
        self.tokenizer = tokenizer

    def reset(self, seed: Optional[int] = None):
        """Resets the env and starts a new history."""
        obs, info = self.env.reset(seed=seed)
        return self.history.on_reset(obs, info), info

    def step(self, action: str):
        """Steps the env and renders the history."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self.history.on_step(action, obs, info), reward, terminated, truncated, info

    def spawn(self, same_state: bool = False, **kwargs) -> Env:
        """The same wrapper over a spawn of the inner env (a fresh history unless ``same_state``)."""
        import copy

        twin = ObservationWrapper(
            self.env.spawn(same_state=same_state, **kwargs),
            self.include_action,
            self.include_chat_template,
            self.apply_chat_template_on_reset,
            self.history.act_queue.maxlen,
            self.tokenizer,
        )
        if same_state:
            twin.history.obs_queue = copy.copy(self.history.obs_queue)
            twin.history.act_queue = copy.copy(self.history.act_queue)
        return twin
