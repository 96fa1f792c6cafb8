"""Multi-agent envs (``gem.envs.multiagent`` / ``gem.multiagent``): ``MultiAgentEnv`` and
``AgentSelector`` for envs written in Python, ``PluginMultiAgentEnv`` for the ones geode's
plugins provide (``geode.make("ma:TicTacToe-v0")``), ``SingleAgentEnv`` (one seat, the
others played by a fixed policy) and ``SelfPlayVectorEnv`` (one policy for every agent of many
episodes)."""

from geode.envs.multiagent.base import MultiAgentEnv
from geode.envs.multiagent.plugin import PluginMultiAgentEnv
from geode.envs.multiagent.selector import AgentSelector
from geode.envs.multiagent.self_play import SelfPlayVectorEnv
from geode.envs.multiagent.single_agent import SingleAgentEnv

__all__ = ["AgentSelector", "MultiAgentEnv", "PluginMultiAgentEnv", "SelfPlayVectorEnv", "SingleAgentEnv"]
