"""Which of GEM's ids geode provides. `gem_ids.json` lists every id GEM 0.1.0 registers
(`sorted(gem.envs.registration.ENV_REGISTRY)`); geode must make and step each of them but the
families it does not provide yet, and that list of gaps must not grow silently."""

import json
from pathlib import Path

GEM_IDS = json.loads((Path(__file__).with_name("gem_ids.json")).read_text())
# Math ids geode does not provide, with the reason (host/builtins/src/math/ids.rs).
NOT_PROVIDED_MATH = {"math:Geometry3K"}  # its problems are diagrams; observations are text


def not_yet_provided(env_id):
    """GEM's ReasoningGym ids, and Geometry3K: not in geode yet."""
    return env_id.startswith("rg:") or env_id in NOT_PROVIDED_MATH


def test_every_other_gem_id_makes_resets_and_steps(gem):
    provided = [i for i in GEM_IDS if not not_yet_provided(i)]
    assert len(provided) == 67
    for env_id in provided:
        assert env_id in gem.ENV_REGISTRY, env_id
        env = gem.make(env_id, **({"timeout": 2} if env_id.endswith("CodeContest") else {}))
        obs, info = env.reset(seed=0)
        assert isinstance(obs, str) and obs and isinstance(info, dict), env_id
        step = env.step(env.sample_random_action())
        assert len(step) == 5 and isinstance(step[4], dict), env_id
        env.close()


def test_the_gaps_are_exactly_the_reasoning_gym_ids_and_geometry3k(gem):
    missing = {i for i in GEM_IDS if i not in gem.ENV_REGISTRY}
    assert missing == {i for i in GEM_IDS if not_yet_provided(i)}
    assert len(missing) == 105
