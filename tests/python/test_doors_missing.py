"""Trainers' doors without their consumer: in a venv that lacks SkyRL-gym, verifiers or
OpenEnv (the suite's own venv), importing ``geode.skyrl`` / ``geode.verifiers`` /
``geode.openenv`` raises ``MissingExtraError``
naming the extra that installs the consumer, not a bare ``ModuleNotFoundError``."""

import importlib
import importlib.util
import sys

import pytest

from geode.errors import MissingExtraError

DOORS = [
    ("geode.skyrl", "skyrl", "skyrl_gym", "skyrl-gym>=0.4,<0.5"),
    ("geode.verifiers", "verifiers", "verifiers.v1", "verifiers>=0.4,<0.5"),
    ("geode.openenv", "openenv", "openenv.core.env_server.interfaces", "openenv>=0.10,<0.11"),
]


@pytest.mark.parametrize("door, extra, module, pin", DOORS)
def test_a_door_without_its_consumer_names_the_extra(door, extra, module, pin):
    if importlib.util.find_spec(module.split(".")[0]) is not None:
        pytest.skip(f"{module} is installed here; the door tests in tests/doors cover it")
    with pytest.raises(MissingExtraError) as raised:
        importlib.import_module(door)
    message = str(raised.value)
    assert f"pip install 'geode[{extra}]'" in message and pin in message
    assert raised.value.name == module
    assert isinstance(raised.value, ImportError)
    assert door not in sys.modules  # a later import, after installing the extra, starts afresh
