"""Wrappers, as in ``gem.wrappers``: ``WRAPPER_FACTORY`` and ``get_wrapper_fns`` by name, and the
Python ``ObservationWrapper`` / ``EpisodeTrackingWrapper``."""

from geode.wrappers.episode_tracking_wrapper import EpisodeTrackingWrapper
from geode.wrappers.observation_wrapper import ObservationHistory, ObservationWrapper
from geode.wrappers.wrapper_factory import (
    TOKENIZER_REQUIRED,
    WRAPPER_FACTORY,
    WrapperFactory,
    get_wrapper_fns,
    tools,
)

__all__ = [
    "EpisodeTrackingWrapper",
    "ObservationHistory",
    "ObservationWrapper",
    "TOKENIZER_REQUIRED",
    "WRAPPER_FACTORY",
    "WrapperFactory",
    "get_wrapper_fns",
    "tools",
]
