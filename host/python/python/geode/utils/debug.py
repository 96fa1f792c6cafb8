"""Printing an episode as it is played (``gem.utils.debug``), to see an env or a policy at work."""

import time
from pprint import pprint
from typing import Callable

import numpy as np


def ppprint(value) -> None:
    """Pretty-prints ``value``; a list or tuple item by item, numbered."""
    if not isinstance(value, (list, tuple)):
        pprint(value)
        return
    for i, item in enumerate(value):
        print("-" * 5, f"{i + 1}/{len(value)}:")
        pprint(item)
        print("")


def _print_step(step: int, parts: dict, terminated, truncated) -> None:
    print("=" * 30)
    print(f"Step {step}")
    for name, value in parts.items():
        print("-" * 10, name, "-" * 10)
        ppprint(value)
    print("terminated: ", terminated, "truncated: ", truncated)
    print("=" * 30)


def _finished(terminated, truncated) -> bool:
    done = np.logical_or(terminated, truncated)
    return bool(done.all()) if isinstance(done, np.ndarray) else bool(done)


def _play(env, choose: Callable, describe: Callable, ignore_done: bool, max_steps: float) -> None:
    """Resets ``env``, then steps it with ``choose(observation)`` and prints
    ``describe(observation, action, next_observation, reward)`` per step, until the episode
    ends (all episodes, for a vector env) or ``max_steps`` steps."""
    started = time.time()
    obs, _ = env.reset()
    step = 0
    while True:
        step += 1
        action = choose(obs)
        next_obs, reward, terminated, truncated, _ = env.step(action)
        _print_step(step, describe(obs, action, next_obs, reward), terminated, truncated)
        obs = next_obs
        if (not ignore_done and _finished(terminated, truncated)) or step >= max_steps:
            break
    print(f"----TIME: {time.time() - started:.2f} seconds")


def run_and_print_episode(env, policy: Callable, ignore_done: bool = False, max_steps: float = 1e9) -> None:
    """Resets ``env`` and steps it with ``policy(observation)``, printing every step, until
    the episode ends (all episodes, for a vector env) or ``max_steps`` steps."""
    _play(env, policy, lambda obs, action, _next, reward: {"observation": obs, "action": action, "reward": reward},
          ignore_done, max_steps)


def run_and_print_episode_with_selective_step(env, policy: Callable, ignore_done: bool = False,
                                               max_steps: float = 1e9) -> None:
    """``run_and_print_episode`` for a vector env, stepping a random half of its envs each time
    (a partial step, ``{index: action}``)."""

    def choose(obs):
        actions, chosen = policy(obs), {}
        while not chosen:
            chosen = {i: a for i, a in enumerate(actions) if np.random.rand() > 0.5}
        return chosen

    _play(env, choose, lambda _obs, action, next_obs, reward: {"action": action, "next_observation": next_obs,
                                                               "reward": reward}, ignore_done, max_steps)
