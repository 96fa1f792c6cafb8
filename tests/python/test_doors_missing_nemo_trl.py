"""Without their extras, NeMo Gym's and TRL's doors (geode.nemo_gym, geode.trl) fail to import with
MissingExtraError naming the extra to install, not a bare ModuleNotFoundError from inside."""

import importlib
import importlib.util

import pytest


@pytest.mark.parametrize("door, extra, consumer", [
    ("geode.nemo_gym", "nemo-gym", "nemo_gym"),
    ("geode.trl", "trl", "trl"),
])
def test_a_door_without_its_extra_names_the_extra(gem, door, extra, consumer):
    if importlib.util.find_spec(consumer) is not None:
        pytest.skip(f"{consumer} is installed here")
    with pytest.raises(gem.MissingExtraError) as raised:
        importlib.import_module(door)
    message = str(raised.value)
    assert f"pip install 'geode[{extra}]'" in message and f"`{extra}` extra" in message
    assert raised.value.name.split(".")[0] == consumer
    assert isinstance(raised.value, ImportError)
