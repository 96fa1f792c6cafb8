"""GEM scripts' calling habits that must work after ``import geode as gem``: keywords an env does
not know, any Python int as a seed, ``dataset=`` rows, ``env{i}_kwargs`` on vector resets and
``vec.envs[i].env``."""

import json
import time
import warnings

import datasets
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


def test_dataset_name_is_loaded_with_the_datasets_library(gem, tmp_path):
    # A local dataset directory, as `datasets.load_dataset` reads one (GEM passes hub ids).
    rows = {"train": "Chemical symbol of gold?", "test": "How many legs has a spider?"}
    for split, question in rows.items():
        (tmp_path / f"{split}.jsonl").write_text(json.dumps({"problem": question, "answer": ["x"]}) + "\n")
    with pytest.raises(gem.BadConfigError, match=r"pass `split`, one of \['train', 'test'\]"):
        gem.make("qa:NaturalQuestions", dataset_name=str(tmp_path))
    with pytest.raises(gem.BadConfigError, match="split 'dev' is not one of"):
        gem.make("qa:NaturalQuestions", dataset_name=str(tmp_path), split="dev")
    env = gem.make("qa:NaturalQuestions", dataset_name=str(tmp_path), split="test")
    assert "How many legs has a spider?" in env.reset()[0]
    assert env.step("<answer>x</answer>")[1] == 1.0
    # A hub id that cannot be loaded (the tests run offline) is an error naming it, never
    # another dataset silently.
    with pytest.raises(gem.BadConfigError, match="load_dataset\\('axon-rl/HotpotQA'\\) failed"):
        gem.make("qa:HotpotQA", dataset_name="axon-rl/HotpotQA")
    with pytest.raises(gem.BadConfigError, match="reads no dataset"):
        gem.make(GUESS, dataset_name=str(tmp_path))


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
    for given in (rows, datasets.Dataset.from_list(rows)):
        env = gem.make("qa:NaturalQuestions", dataset=given)
        obs, _ = env.reset()
        assert "Chemical symbol of gold?" in obs
        assert env.step("<answer>Au</answer>")[1] == 1.0
    with pytest.raises(gem.BadConfigError, match="row 0"):
        gem.make("qa:NaturalQuestions", dataset=["not a dict"])


def test_env_i_kwargs_and_envs_i_env(gem):
    vec = gem.make_vec([GUESS] * 3, wrappers=["concat"], max_turns=3)
    vec.reset(seed=0)
    # env{i}_kwargs' seed applies to env i only: env 1 restarts the episode of seed 5.
    alone = gem.make(GUESS, max_turns=3, wrappers=["concat"])
    expected = alone.reset(seed=5)[0]
    observations, _ = vec.reset(env1_kwargs={"seed": 5})
    assert observations[1] == expected
    with pytest.warns(UserWarning, match="'idx'"):  # a game has no dataset rows to choose
        vec.reset(env0_kwargs={"idx": 3})
    with pytest.raises(gem.InvalidArgumentError, match="bogus"):
        vec.reset(bogus=1)
    actions = [vec.envs[i].env.sample_random_action() for i in range(3)]
    assert all(a.startswith("\\boxed{") for a in actions)
    assert vec.envs[2].unwrapped.env_id == GUESS


@pytest.mark.parametrize("env_id", ["qa:NaturalQuestions", "math:GSM8K", "code:CodeContest"])
def test_reset_idx_poses_that_row_of_the_walk(gem, env_id):
    walker = gem.make(env_id, seed=3)
    walked = [walker.reset()[0] for _ in range(6)]
    env = gem.make(env_id, seed=3)
    assert env.reset(idx=4)[0] == walked[4]
    assert env.reset()[0] == walked[5]  # unseeded resets go on from the row asked for
    assert env.reset(idx=1)[0] == walked[1]
    vec = gem.make_vec([env_id] * 2, seed=3)
    obs, _ = vec.reset(env1_kwargs={"idx": 2})
    assert obs[1] == gem.make(env_id, seed=4).reset(idx=2)[0]  # slot 1 walks with seed + 1
    assert vec.envs[0].reset(idx=2)[0] == walked[2]


def test_reset_idx_on_a_game_starts_that_episode_of_its_stream(gem):
    # A game has no rows; `idx` numbers the episodes of its unseeded stream, so it replays.
    walker, env = gem.make(GUESS), gem.make(GUESS)
    walker.reset(seed=7)
    walked = [walker.reset()[0] for _ in range(4)]
    env.reset(seed=7)
    assert env.reset(idx=2)[0] == walked[2] and env.reset()[0] == walked[3]
