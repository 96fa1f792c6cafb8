"""Multi-agent envs under ``gem.multiagent``, where GEM's package puts them; the same objects
as ``geode.envs.multiagent``."""

from geode.envs.multiagent import (
    AgentSelector,
    MultiAgentEnv,
    PluginMultiAgentEnv,
    SelfPlayVectorEnv,
    SingleAgentEnv,
)

__all__ = ["AgentSelector", "MultiAgentEnv", "PluginMultiAgentEnv", "SelfPlayVectorEnv", "SingleAgentEnv"]
