"""GEM's ``ToolEnvWrapper`` (``gem.tools.tool_env_wrapper``) in Python, for any env and any
``BaseTool``. It follows the native tools layer rule for rule (tools tried in order, a tool turn
does not step the env, the rewards, the ``max_tool_uses`` message, the counters in info); in
``make_vec`` a wrapper whose tools are all native runs as that native layer instead."""

import math
from typing import List, Optional

from geode import _geode
from geode.core import Env, EnvWrapper
from geode.tools.base_tool import BaseTool


class ToolEnvWrapper(EnvWrapper):
    """Lets the agent call ``tools`` before it answers; ``max_tool_uses=None`` means no limit."""

    def __init__(self, env: Env, tools: List[BaseTool], tool_reward: float = 0.0,
                 tool_success_reward: float = 0.0, tool_execute_error_reward: float = 0.0,
                 max_tool_uses: Optional[int] = 10):
        super().__init__(env)
        if not tools:
            raise ValueError("ToolEnvWrapper needs at least one tool")
        self.tools = list(tools)
        self.tool_reward = tool_reward
        self.tool_success_reward = tool_success_reward
        self.tool_execute_error_reward = tool_execute_error_reward
        self.max_tool_uses = math.inf if max_tool_uses is None else max_tool_uses
        self.tool_use_counter = 0
        self.tool_success_counter = 0

    def reset(self, seed: Optional[int] = None):
        """Resets the env and the counters; the tools' instructions follow the observation."""
        prev_uses, prev_successes = self.tool_use_counter, self.tool_success_counter
        self.tool_use_counter = self.tool_success_counter = 0
        obs, info = self.env.reset(seed=seed)
        instructions = "\n".join(tool.instruction_string() for tool in self.tools)
        if len(self.tools) > 1:
            instructions = f"Available tools:\n{instructions}"
        info.update(tool_use_counter=0, tool_success_counter=0, prev_ep_tool_use_counter=prev_uses,
                    prev_ep_tool_success_counter=prev_successes, use_tool=False)
        return f"{obs}\n{instructions}", info

    def step(self, action: str):
        """A tool turn if some tool takes the action (the env does not move), else an env step."""
        ran = self._run_tools(action) if self.tool_use_counter < self.max_tool_uses else None
        if ran is None:
            obs, reward, terminated, truncated, info = self.env.step(action)
            info.update(tool_use_counter=self.tool_use_counter,
                        tool_success_counter=self.tool_success_counter, use_tool=False)
            return obs, reward, terminated, truncated, info
        tool, has_error, observation, parsed_action = ran
        self.tool_use_counter += 1
        reward = self.tool_reward
        if has_error:
            reward += self.tool_execute_error_reward
        else:
            self.tool_success_counter += 1
            reward += self.tool_success_reward
        if self.tool_use_counter == self.max_tool_uses:
            observation = f"{observation}\n\n{_geode.MAX_TOOL_USE_MESSAGE}"
        info = {"parsed_action": parsed_action, "tool_type": tool.tool_type,
                "tool_use_counter": self.tool_use_counter,
                "tool_success_counter": self.tool_success_counter, "use_tool": True}
        return observation, reward, False, False, info

    def _run_tools(self, action: str):
        """The first tool that takes the action and succeeds, else the first that took it."""
        failed = None
        for tool in self.tools:
            parsed, has_error, observation, parsed_action = tool.execute_action(action)
            if not parsed:
                continue
            if not has_error:
                return tool, False, observation, parsed_action
            if failed is None:
                failed = (tool, True, observation, parsed_action)
        return failed


def tools_config(tools, tool_reward=0.0, tool_success_reward=0.0, tool_execute_error_reward=0.0,
                 max_tool_uses: Optional[int] = 10) -> dict:
    """The native tools layer's config for native ``tools`` and GEM's reward settings."""
    return dict(tools=[tool.spec() for tool in tools], tool_reward=tool_reward,
                tool_success_reward=tool_success_reward,
                tool_execute_error_reward=tool_execute_error_reward, max_tool_uses=max_tool_uses)
