"""GEM scripts' calling habits that must work after ``import geode as gem``: keywords an env does
not know, any Python int as a seed, ``dataset=`` rows, ``env{i}_kwargs`` on vector resets and
``vec.envs[i].env``."""

import time
import warnings

import numpy as np
import pytest

GUESS = "game:GuessTheNumber-v0-hard"


def test_gem_loading_keywords_are_accepted_silently(gem):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gem.make(GUESS, verbose=True, use_mp=False, load_from_cache_file=False)
    assert env.reset(seed=1)[0]


def test_unknown_keywords_warn_with_their_name_or_raise_in_strict_mode(gem, monkeypatch):
    with pytest.warns(UserWarning, match="'bogus'.*max_turns"):
        env = gem.make(GUESS, bogus=3, max_turns=4)
    env.reset(seed=0)
    assert env.step("\\boxed{1}")[0]  # the known key still applies: 4 turns
    with pytest.raises(gem.BadConfigError, match="bogus"):
        gem.make(GUESS, bogus=3, strict=True)
    monkeypatch.setenv("GEODE_STRICT", "1")
    with pytest.raises(gem.BadConfigError, match="bogus"):
        gem.make_vec([GUESS] * 2, bogus=3)
    monkeypatch.delenv("GEODE_STRICT")
    with pytest.warns(UserWarning, match="'bogus'"):
        vec = gem.make_vec([GUESS] * 2, bogus=3)
    assert len(vec.reset()[0]) == 2


def test_keywords_that_choose_other_data_still_raise(gem):
    with pytest.raises(gem.BadConfigError, match="dataset_name.*hub"):
        gem.make("qa:HotpotQA", dataset_name="axon-rl/HotpotQA")


def test_any_python_int_is_a_seed(gem):
    env = gem.make(GUESS)
    big = time.time_ns() * 987_654_321_987
    assert big >= 2**64
    first = [env.reset(seed=big)[0]] + [env.step(f"\\boxed{{{g}}}")[0] for g in (10, 20, 30)]
    again = [env.reset(seed=big)[0]] + [env.step(f"\\boxed{{{g}}}")[0] for g in (10, 20, 30)]
    assert first == again
    # Bits above 64 count: seeds that differ only there give other episodes.
    assert gem._geode.reduce_seed(big) != gem._geode.reduce_seed(big + 2**64)
    # As random.seed does, a negative seed seeds as its absolute value; numpy ints work too.
    assert gem._geode.reduce_seed(-5) == 5 == gem._geode.reduce_seed(np.int64(5))
    with pytest.raises(TypeError, match="seed must be an int"):
        env.reset(seed="5")
    vec = gem.make_vec([GUESS] * 2, seed=big)
    vec.reset(seed=big)
    gem.make("qa:HotpotQA", seed=big).reset()


def test_dataset_rows_and_dataset_objects(gem):
    rows = [{"problem": "Chemical symbol of gold?", "answer": ["Au"]}]
    for given in (rows, _FakeDataset(rows)):
        env = gem.make("qa:NaturalQuestions", dataset=given)
        obs, _ = env.reset()
        assert "Chemical symbol of gold?" in obs
        assert env.step("<answer>Au</answer>")[1] == 1.0
    with pytest.raises(gem.BadConfigError, match="row 0"):
        gem.make("qa:NaturalQuestions", dataset=["not a dict"])


class _FakeDataset:
    """The one method of ``datasets.Dataset`` geode reads (the library itself is not needed)."""

    def __init__(self, rows):
        self._rows = rows

    def to_list(self):
        return list(self._rows)


def test_env_i_kwargs_and_envs_i_env(gem):
    vec = gem.make_vec([GUESS] * 3, wrappers=["concat"], max_turns=3)
    vec.reset(seed=0)
    # env{i}_kwargs' seed applies to env i only: env 1 restarts the episode of seed 5.
    alone = gem.make(GUESS, max_turns=3, wrappers=["concat"])
    expected = alone.reset(seed=5)[0]
    observations, _ = vec.reset(env1_kwargs={"seed": 5})
    assert observations[1] == expected
    with pytest.warns(UserWarning, match="'idx'"):
        vec.reset(env0_kwargs={"idx": 3})
    with pytest.raises(gem.InvalidArgumentError, match="bogus"):
        vec.reset(bogus=1)
    actions = [vec.envs[i].env.sample_random_action() for i in range(3)]
    assert all(a.startswith("\\boxed{") for a in actions)
    assert vec.envs[2].unwrapped.env_id == GUESS
