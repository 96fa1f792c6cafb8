"""Units through Python: by default a vector env's slots share component instances, and a
fault inside a unit looks exactly like a fault of a lone env (``group_size=1``)."""

import random

import numpy as np

POISONS = ["poison:loop", "poison:alloc", "poison:panic", "poison:stack", "poison:huge",
           "poison:bad-info", "poison:nan"]
LIMITS = {"fuel_per_call": 200_000_000, "max_memory_bytes": 16 << 20}


def _script(n, rounds, seed):
    rng = random.Random(seed)
    batches, poisoned = [], set()
    for r in range(rounds):
        batch = [f"\\boxed{{{rng.randint(1, 20)}}}" for _ in range(n)]
        if rng.random() < 0.35:
            slot = rng.randrange(n)
            batch[slot] = rng.choice(POISONS)
            poisoned.add((r, slot))
        batches.append(batch)
    return batches, poisoned


def _run(gem, batches, group_size, async_mode):
    n = len(batches[0])
    vec = gem.make_vec(["poison:Counter-v0"] * n, seed=3, group_size=group_size,
                       async_mode=async_mode, limits=LIMITS)
    out = [vec.reset()]
    for batch in batches:
        obs, rewards, terminated, truncated, infos = vec.step(batch)
        out.append((list(obs), rewards.tolist(), terminated.tolist(), truncated.tolist(),
                    [dict(i) for i in infos]))
    vec.close()
    return out


def test_poisoned_slots_fail_alone_and_others_match_lone_envs(poison):
    gem = poison
    batches, poisoned = _script(32, 150, 5)
    lone = _run(gem, batches, 1, False)
    for async_mode in (False, True):
        shared = _run(gem, batches, 8, async_mode)
        assert shared[0][0] == lone[0][0]
        for r, (a, b) in enumerate(zip(lone[1:], shared[1:])):
            assert a[:4] == b[:4], f"round {r} (async={async_mode})"
            for slot in range(32):
                assert a[4][slot] == b[4][slot], f"round {r}, slot {slot}"
                failed = "error" in b[4][slot]
                assert failed == ((r, slot) in poisoned), f"round {r}, slot {slot}: {b[4][slot]}"
    assert len(poisoned) > 30


def test_default_vectors_share_units(gem):
    vec = gem.make_vec(["game:GuessTheNumber-v0-hard"] * 64, seed=0)
    vec.reset()
    _, rewards, _, _, _ = vec.step(["\\boxed{25}"] * 64)
    assert isinstance(rewards, np.ndarray) and rewards.shape == (64,)
    vec.close()
