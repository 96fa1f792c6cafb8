"""The async pool: send/recv, and per-episode ``await vec.step_async`` under asyncio."""

import asyncio
import time

import numpy as np
import pytest

HARD = "game:GuessTheNumber-v0-hard"


async def bisect_episode(vec, index: int):
    """Plays one GuessTheNumber-hard episode by bisection; returns (steps, return)."""
    low, high, steps, total = 1, 50, 0, 0.0
    while True:
        guess = (low + high) // 2
        obs, reward, terminated, truncated, info = await vec.step_async(index, "\\boxed{%d}" % guess)
        steps, total = steps + 1, total + reward
        if terminated or truncated:
            return steps, total
        if "higher" in obs:
            low = guess + 1
        else:
            high = guess - 1


def test_gather_over_episodes(gem):
    n = 16
    vec = gem.make_vec([HARD] * n, async_mode=True, seed=0)
    vec.reset()

    async def main():
        return await asyncio.gather(*(bisect_episode(vec, i) for i in range(n)))

    results = asyncio.run(main())
    assert len(results) == n
    assert all(steps <= 6 and total == 1.0 for steps, total in results)  # bisection always wins


def test_event_loop_keeps_running_while_steps_are_in_flight(hostile):
    gem = hostile
    vec = gem.make_vec(["hostile:slow"] * 2, async_mode=True, num_threads=2,
                       limits={"fuel_per_call": None, "deadline_per_call": 30})
    vec.reset()
    ticks = 0

    async def ticker(stop):
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0.005)

    async def main():
        stop = asyncio.Event()
        tick = asyncio.create_task(ticker(stop))
        start = time.perf_counter()
        results = await asyncio.gather(*(vec.step_async(i, str(150_000_000)) for i in range(2)))
        elapsed = time.perf_counter() - start
        stop.set()
        await tick
        return results, elapsed

    results, elapsed = asyncio.run(main())
    assert all(r[0].startswith("spun") for r in results)
    assert ticks >= 0.3 * elapsed / 0.005, (ticks, elapsed)  # the loop was never blocked


def test_a_slot_takes_one_step_at_a_time(hostile):
    gem = hostile
    vec = gem.make_vec(["hostile:slow"] * 2, async_mode=True,
                       limits={"fuel_per_call": None, "deadline_per_call": 30})
    vec.reset()
    vec.send({0: str(150_000_000)})
    with pytest.raises(gem.InvalidArgumentError, match="still has a step in flight"):
        vec.send({0: "1"})
    indices, obs, *_ = vec.recv(1)
    assert indices.tolist() == [0] and obs[0].startswith("spun 150000000")


def test_send_recv(gem):
    vec = gem.make_vec([HARD] * 6, async_mode=True, seed=0)
    vec.reset()
    assert vec.recv(0, timeout=0.01)[0].size == 0
    vec.send([0, 2, 4], ["\\boxed{10}"] * 3)
    assert vec.pending == 3
    with pytest.raises(gem.InvalidArgumentError, match="in flight|not received"):
        vec.step(["\\boxed{1}"] * 6)  # the queue holds sent results
    got = {}
    while len(got) < 3:
        indices, obs, rewards, terminations, truncations, infos = vec.recv(1)
        assert rewards.dtype == np.float64 and len(obs) == len(indices) == len(infos)
        got.update(zip(indices.tolist(), obs))
    assert sorted(got) == [0, 2, 4] and all("guessed 10" in o for o in got.values())
    vec.send({1: "\\boxed{1}"})
    vec.recv(1)
    with pytest.raises(gem.InvalidArgumentError, match="wait forever"):
        vec.recv(1)
    vec.send_reset([3], seeds=[5])
    indices, obs, rewards, *_ = vec.recv(1)
    assert indices.tolist() == [3] and obs[0].startswith("You are playing") and rewards[0] == 0.0


def test_step_async_needs_async_mode_and_reports_errors(gem, tokenizer):
    sync = gem.make_vec([HARD] * 2)
    with pytest.raises(gem.InvalidArgumentError, match="async_mode=True"):
        asyncio.run(sync.step_async(0, "\\boxed{1}"))
    vec = gem.make_vec([HARD] * 2, async_mode=True,
                       wrappers=gem.wrappers.get_wrapper_fns("concat_chat", tokenizer=tokenizer))
    vec.reset(seed=1)

    async def main():
        first = await vec.step_async(0, "\\boxed{30}")  # seed 1 hides 9
        with pytest.raises(gem.InvalidArgumentError, match="out of range"):
            await vec.step_async(9, "\\boxed{30}")
        return first

    obs, reward, terminated, truncated, info = asyncio.run(main())
    assert "<|assistant|>\\boxed{30}<|end|><|user|>At turn 1" in obs


def test_many_concurrent_step_async_calls_all_complete(gem):
    """Stress for lost wake-ups: every awaited step resolves (a hang fails by timeout)."""
    n, steps = 64, 150
    vec = gem.make_vec([HARD] * n, async_mode=True, seed=0)
    vec.reset()

    async def worker(i):
        done = 0
        for k in range(steps):
            await vec.step_async(i, "\\boxed{%d}" % ((i + k) % 50 + 1))
            done += 1
        return done

    async def main():
        return await asyncio.wait_for(asyncio.gather(*(worker(i) for i in range(n))), timeout=60)

    assert sum(asyncio.run(main())) == n * steps


def test_step_async_reports_the_ended_episode_in_its_own_info(gem):
    vec = gem.make_vec([HARD] * 2, async_mode=True, seed=0)
    vec.reset()
    vec.step(["\\boxed{1}", "\\boxed{2}"])
    batch_finals = list(vec.final_observations)

    async def play():
        # Guess 1..50 in order: the episode ends by a win or at the turn limit.
        for guess in range(1, 51):
            obs, reward, terminated, truncated, info = await vec.step_async(0, "\\boxed{%d}" % guess)
            if terminated or truncated:
                return obs, info
            assert "final_observation" not in info

    obs, info = asyncio.run(play())
    assert obs.startswith("You are playing Guess The Number"), obs  # SameStep: the next episode
    last = info["final_observation"]
    assert "Congratulations" in last or "maximum number of turns" in last, last
    assert isinstance(info["final_info"], dict)
    assert vec.final_observations == batch_finals  # batch results stay as the batch left them


def test_a_whole_batch_step_is_refused_while_an_episode_steps(hostile):
    gem = hostile
    vec = gem.make_vec(["hostile:slow"] * 2, async_mode=True,
                       limits={"fuel_per_call": None, "deadline_per_call": 30})
    vec.reset()

    async def main():
        slow = asyncio.ensure_future(vec.step_async(0, str(150_000_000)))
        await asyncio.sleep(0)  # the step is in flight
        with pytest.raises(gem.InvalidArgumentError, match="still has a step in flight"):
            vec.step(["1", "1"])
        return await slow

    obs, *_ = asyncio.run(main())
    assert obs.startswith("spun 150000000")
    obs, rewards, terminations, truncations, infos = vec.step(["1", "2"])
    assert obs[0].startswith("spun 1") and obs[1].startswith("spun 2")
