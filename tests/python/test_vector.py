"""Vector envs: GEM's return types, seeding, each autoreset mode, partial steps, chat layers."""

import numpy as np
import pytest

EASY = "game:GuessTheNumber-v0-easy"  # 1..10 within 4 turns
BAD = "no guess here"  # a format error ends a GuessTheNumber episode at once


@pytest.fixture(params=[False, True], ids=["sync", "async"])
def async_mode(request):
    return request.param


def test_types_and_seeds(gem, async_mode):
    vec = gem.make_vec([EASY] * 3, async_mode=async_mode, seed=10)
    obs, infos = vec.reset()
    assert vec.num_envs == 3 and len(obs) == 3 and infos[0] == {"suffix": "Enter your next guess."}
    single = gem.make(EASY)
    expected = []
    for i in range(3):  # env i's first reset uses seed + i
        single.reset(seed=10 + i)
        expected.append(single.step("\\boxed{5}")[0])
    obs, rewards, terminations, truncations, infos = vec.step(["\\boxed{5}"] * 3)
    assert obs == expected
    assert rewards.dtype == np.float64 and rewards.shape == (3,)
    assert terminations.dtype == np.bool_ and truncations.dtype == np.bool_
    assert isinstance(infos, list) and all(isinstance(i, dict) for i in infos)


def test_actions_may_be_any_sequence_of_str(gem, async_mode):
    vec = gem.make_vec([EASY] * 2, async_mode=async_mode)
    vec.reset(seed=0)
    by_list = vec.step(["\\boxed{1}", "\\boxed{2}"])[0]
    vec.reset(seed=0)
    assert vec.step(("\\boxed{1}", "\\boxed{2}"))[0] == by_list
    with pytest.raises(TypeError, match=r"actions\[1\] is int, not str"):
        vec.step(["\\boxed{1}", 2])
    assert len(vec.step(["\\boxed{3}"] * 2)[0]) == 2  # a refused batch stepped nothing


def test_same_step(gem, async_mode):
    vec = gem.make_vec([EASY] * 2, async_mode=async_mode)
    assert vec.autoreset_mode == gem.AutoresetMode.SAME_STEP
    vec.reset(seed=0)
    obs, rewards, terminations, _, _ = vec.step([BAD, "\\boxed{1}"])
    assert terminations[0] and rewards[0] < 0
    assert obs[0].startswith("You are playing")  # already the next episode's first observation
    assert "did not provide a valid guess" in vec.final_observations[0]
    assert vec.final_observations[1] is None
    obs, rewards, terminations, _, _ = vec.step(["\\boxed{2}", "\\boxed{2}"])
    assert "At turn 1" in obs[0]


def test_next_step(gem, async_mode):
    vec = gem.make_vec([EASY] * 2, async_mode=async_mode, autoreset_mode="NextStep")
    vec.reset(seed=0)
    obs, rewards, terminations, _, _ = vec.step([BAD, "\\boxed{1}"])
    assert terminations[0] and "did not provide a valid guess" in obs[0]
    obs, rewards, terminations, truncations, _ = vec.step(["ignored", "\\boxed{2}"])
    assert obs[0].startswith("You are playing") and rewards[0] == 0.0
    assert not terminations[0] and not truncations[0]
    assert "At turn 2" in obs[1]


def test_disabled(gem, async_mode):
    vec = gem.make_vec([EASY] * 2, async_mode=async_mode, autoreset_mode=gem.AutoresetMode.DISABLED)
    vec.reset(seed=0)
    _, _, terminations, _, _ = vec.step([BAD, "\\boxed{1}"])
    assert terminations[0]
    _, _, _, _, infos = vec.step(["\\boxed{1}", "\\boxed{2}"])
    assert infos[0]["error_type"] == "InvalidStateError" and "autoreset is disabled" in infos[0]["error"]
    assert isinstance(vec.errors[0], gem.InvalidStateError) and vec.errors[1] is None
    obs, _ = vec.reset(indices=[0])
    assert len(obs) == 1 and obs[0].startswith("You are playing")
    obs, *_ = vec.step({0: "\\boxed{3}"})
    assert "At turn 1" in obs[0]


def test_mode_can_be_assigned_mid_episode(gem, async_mode):
    vec = gem.make_vec([EASY] * 2, async_mode=async_mode)
    vec.reset(seed=0)
    vec.step(["\\boxed{1}", "\\boxed{1}"])
    vec.autoreset_mode = "NextStep"  # GEM code sets the attribute; the episodes go on
    assert vec.autoreset_mode == gem.AutoresetMode.NEXT_STEP
    obs, *_ = vec.step(["\\boxed{2}", BAD])
    assert "At turn 2" in obs[0] and "did not provide" in obs[1]
    obs, rewards, *_ = vec.step(["\\boxed{3}", "ignored"])
    assert "At turn 3" in obs[0]
    assert obs[1].startswith("You are playing") and rewards[1] == 0.0


def test_envs_drive_single_slots(gem, async_mode):
    vec = gem.make_vec([EASY] * 3, async_mode=async_mode, autoreset_mode="NextStep")
    assert len(vec.envs) == 3 and vec.envs[2].env_id == EASY
    single = gem.make(EASY)
    expected = single.reset(seed=4)[0], single.step("\\boxed{5}")[0]
    slot = vec.envs[1]
    assert slot.reset(seed=4)[0] == expected[0]
    obs, reward, terminated, truncated, info = slot.step("\\boxed{5}")
    assert obs == expected[1] and info == {"suffix": "Enter your next guess."}
    assert slot.sample_random_action().startswith("\\boxed{")
    state = slot.get_state()
    after = slot.step("\\boxed{6}")[0]
    slot.set_state(state)
    assert slot.step("\\boxed{6}")[0] == after
    _, _, terminated, _, _ = slot.step(BAD)
    assert terminated
    obs, rewards, *_ = vec.step({1: "ignored"})  # the vector saw the direct episode end
    assert obs[0].startswith("You are playing") and rewards[0] == 0.0
    with pytest.raises(IndexError):
        vec.envs[7]


def test_partial_steps_with_a_dict(gem, async_mode):
    vec = gem.make_vec([EASY] * 4, async_mode=async_mode, wrappers=["episode_tracking"])
    vec.reset(seed=1)
    obs, rewards, terminations, truncations, infos = vec.step({3: "\\boxed{4}", 1: "\\boxed{2}"})
    assert len(obs) == 2 and rewards.shape == terminations.shape == truncations.shape == (2,)
    single = gem.make(EASY)
    for k, (i, guess) in enumerate([(3, 4), (1, 2)]):  # results come back in the dict's order
        single.reset(seed=1 + i)
        expected, _, t, u, _ = single.step("\\boxed{%d}" % guess)
        assert (vec.final_observations[k] if t or u else obs[k]) == expected
    _, _, _, _, infos = vec.step(["\\boxed{5}"] * 4)
    assert infos[0]["step_counter"] == infos[2]["step_counter"] == 1  # slots 0 and 2 were left alone
    with pytest.raises(gem.InvalidArgumentError, match="out of range"):
        vec.step({7: "\\boxed{1}"})
    with pytest.raises(gem.InvalidArgumentError):
        vec.step(["\\boxed{1}"] * 3)


def test_chat_layers_match_the_python_wrapper(gem, tokenizer, async_mode):
    """concat_chat on a native vector env renders what GEM's ObservationWrapper renders on
    each env, across SameStep autoresets."""
    wrappers = gem.wrappers.get_wrapper_fns("concat_chat,episode_tracking", tokenizer=tokenizer)
    vec = gem.make_vec([EASY] * 2, wrappers=wrappers, async_mode=async_mode, seed=5)
    refs = []
    for i in range(2):
        env = gem.wrappers.ObservationWrapper(gem.make(EASY), tokenizer=tokenizer)
        refs.append(env)
    obs, _ = vec.reset()
    assert obs == [ref.reset(seed=5 + i)[0] for i, ref in enumerate(refs)]
    for actions in (["\\boxed{1}", BAD], ["\\boxed{2}", "\\boxed{3}"], ["\\boxed{3}", "\\boxed{4}"]):
        obs, _, terminations, truncations, infos = vec.step(actions)
        for i, ref in enumerate(refs):
            expected, _, t, u, _ = ref.step(actions[i])
            if t or u:
                assert vec.final_observations[i] == expected
                expected, _ = ref.reset()
            assert obs[i] == expected
        assert all("step_counter" in info for info in infos)


def test_python_callable_wrappers_fall_back_to_python_slots(gem):
    seen = []

    def spy(env):
        seen.append(env)
        return gem.wrappers.EpisodeTrackingWrapper(env)

    vec = gem.make_vec([EASY] * 2, wrappers=["concat", spy])
    assert len(seen) == 2 and not isinstance(vec, gem.NativeVectorEnv)
    vec.reset(seed=0)
    obs, _, _, _, infos = vec.step(["\\boxed{1}", "\\boxed{2}"])
    assert infos[1]["step_counter"] == 1 and "guessed 2" in obs[1]


def test_close(gem, async_mode):
    vec = gem.make_vec([EASY] * 2, async_mode=async_mode)
    vec.reset()
    vec.close()
    with pytest.raises(gem.InvalidStateError, match="closed"):
        vec.step(["\\boxed{1}"] * 2)


def test_group_size_steps_like_separate_instances(gem, async_mode):
    """Envs sharing a component instance (group_size) return what separate instances return."""
    actions = [[f"\\boxed{{{(r * 7 + i * 3) % 11}}}" for i in range(5)] for r in range(40)]
    runs = []
    for group_size in (1, 2):
        vec = gem.make_vec([EASY] * 5, async_mode=async_mode, seed=3, group_size=group_size)
        trace = [vec.reset()[0]]
        for batch in actions:
            obs, rewards, terminations, truncations, infos = vec.step(batch)
            trace.append((obs, rewards.tolist(), terminations.tolist(), truncations.tolist(), infos))
        runs.append(trace)
    assert runs[0] == runs[1]


def test_wrapped_envs_step_alike_whatever_the_group_size(gem):
    """Wrapped envs step as units of one: a group size does not change what they return."""
    runs = []
    for group_size in (1, 2):
        vec = gem.make_vec([EASY] * 4, wrappers=["episode_tracking"], seed=1,
                           group_size=group_size)
        trace = [vec.reset()[0]]
        for k in range(6):
            obs, rewards, _, _, infos = vec.step([f"\\boxed{{{k}}}"] * 4)
            trace.append((list(obs), rewards.tolist(), [dict(i) for i in infos]))
        runs.append(trace)
    assert runs[0] == runs[1]


def test_a_result_is_held_until_the_next_step_only(gem, async_mode):
    """The vector env keeps its last result alive to free it during the next step: it lets go
    then, and a cycle through that result is still collected."""
    import gc
    import sys
    import weakref

    vec = gem.make_vec([EASY] * 4, seed=0, async_mode=async_mode)
    vec.reset()
    obs, _, _, _, infos = vec.step(["\\boxed{1}"] * 4)
    before = list(obs)
    held = sys.getrefcount(obs)
    vec.step(["\\boxed{2}"] * 4)
    assert sys.getrefcount(obs) == held - 1
    assert obs == before  # never changed by later steps

    _, _, _, _, infos = vec.step(["\\boxed{3}"] * 4)
    infos[0]["vec"] = vec  # vec -> its last result -> infos -> vec
    alive = weakref.ref(vec)
    del vec, infos
    gc.collect()
    assert alive() is None


def test_text_beyond_ascii_arrives_as_lone_envs_give_it(gem, async_mode):
    # WikiGame's pages are real article text: accents, dashes, non-Latin names.
    n, wiki = 8, "game:WikiGame-v0-easy"
    vec = gem.make_vec([wiki] * n, async_mode=async_mode, seed=0)
    vec.reset(seed=0)
    singles = [gem.make(wiki) for _ in range(n)]
    for i, env in enumerate(singles):
        env.reset(seed=i)
    beyond_ascii = 0
    for _ in range(12):
        actions = [env.sample_random_action() for env in singles]
        obs = vec.step(actions)[0]
        for k, (env, action) in enumerate(zip(singles, actions)):
            expected, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                expected = env.reset()[0]
            assert obs[k] == expected
            beyond_ascii += not obs[k].isascii()
    assert beyond_ascii > 0


def test_no_two_infos_share_a_list_or_a_dict(gem, poison, async_mode):
    # Every slot returns the same info text, with a list and an object in it: each slot's dict
    # and what it holds must be its own, in this step and the next.
    vec = gem.make_vec(["poison:Counter-v0"] * 4, seed=0, async_mode=async_mode)
    vec.reset(seed=0)
    infos = vec.step(["info:nested"] * 4)[4]
    assert all(info == {"tags": ["a", "b"], "meta": {"depth": 1}} for info in infos)
    infos[0]["tags"].append("mine")
    infos[0]["meta"]["depth"] = 9
    assert infos[1] == {"tags": ["a", "b"], "meta": {"depth": 1}}
    later = vec.step(["info:nested"] * 4)[4]
    assert later[0] == {"tags": ["a", "b"], "meta": {"depth": 1}}
