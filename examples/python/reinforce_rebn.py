#!/usr/bin/env python3
"""REINFORCE with return batch normalization (ReBN, from the GEM paper) on geode vector envs.

The policy is a table of softmax logits over the 10 possible guesses of GuessTheNumber-v0-easy,
indexed by what the feedback so far allows: the interval [low, high] still holding the number.
Each batch of finished episodes gives per-turn discounted returns; ReBN normalizes them across
the whole batch (subtract the mean, divide by the std) and the normalized returns weight the
log-probability gradients. Numpy only; a few seconds to a minute on a CPU.

    bash host/python/dev-install.sh
    target/py-venv/bin/python examples/python/reinforce_rebn.py [--episodes 20000]

The mean return rises from about 0.4 (random guessing) towards 1.0 (always found by bisection).
"""

import argparse
import re
import time

import numpy as np

import geode as gem

RANGE = re.compile(r"between (\d+) and (\d+)")
HINT = re.compile(r"you guessed (\d+), and the target number is (higher|lower)")


class TabularPolicy:
    """Softmax over guesses ``lo..hi`` for each interval ``(low, high)`` still possible."""

    def __init__(self, lo: int, hi: int, rng: np.random.Generator):
        self.lo, self.hi, self.rng = lo, hi, rng
        n = hi - lo + 1
        self.logits = np.zeros((n, n, n))  # [low - lo, high - lo, guess - lo]

    def probs(self, state):
        """The action distribution in ``state``."""
        z = self.logits[state[0] - self.lo, state[1] - self.lo]
        z = np.exp(z - z.max())
        return z / z.sum()

    def act(self, state) -> int:
        """A guess drawn from the policy."""
        return int(self.rng.choice(len(self.logits), p=self.probs(state))) + self.lo

    def update(self, states, guesses, advantages, lr: float):
        """One policy-gradient step: grad log pi(a|s) = onehot(a) - pi(s), weighted by A."""
        grad = np.zeros_like(self.logits)
        for (low, high), guess, adv in zip(states, guesses, advantages):
            g = -self.probs((low, high))
            g[guess - self.lo] += 1.0
            grad[low - self.lo, high - self.lo] += adv * g
        self.logits += lr * grad


def next_state(state, obs: str):
    """The interval after a step's feedback (None when the observation is a new episode)."""
    hint = HINT.search(obs)
    if hint is None:
        return state
    guess, direction = int(hint.group(1)), hint.group(2)
    low, high = state
    return (max(low, guess + 1), high) if direction == "higher" else (low, min(high, guess - 1))


def rebn(episodes, gamma: float):
    """Per-turn discounted returns of every episode, normalized across the batch (ReBN)."""
    states, guesses, returns = [], [], []
    for ep in episodes:
        g = 0.0
        rets = []
        for r in reversed(ep["rewards"]):
            g = r + gamma * g
            rets.append(g)
        states += ep["states"]
        guesses += ep["guesses"]
        returns += rets[::-1]
    returns = np.asarray(returns)
    return states, guesses, (returns - returns.mean()) / (returns.std() + 1e-8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="game:GuessTheNumber-v0-easy")
    parser.add_argument("--num-envs", type=int, default=32)
    parser.add_argument("--batch-episodes", type=int, default=128)
    parser.add_argument("--episodes", type=int, default=20_000)
    parser.add_argument("--gamma", type=float, default=0.9)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    vec = gem.make_vec([args.env_id] * args.num_envs, seed=args.seed)
    obs, _ = vec.reset()
    lo, hi = map(int, RANGE.search(obs[0]).groups())
    policy = TabularPolicy(lo, hi, rng)
    states = [(lo, hi)] * args.num_envs
    running = [{"states": [], "guesses": [], "rewards": []} for _ in range(args.num_envs)]
    batch, finished, start = [], 0, time.perf_counter()
    print(f"{args.env_id}: {args.num_envs} envs, batches of {args.batch_episodes} episodes")
    print(f"{'episodes':>9} {'mean return':>12} {'solved':>7} {'turns':>6}")
    while finished < args.episodes:
        guesses = [policy.act(s) for s in states]
        obs, rewards, terminations, truncations, _ = vec.step(["\\boxed{%d}" % g for g in guesses])
        for i in range(args.num_envs):
            ep = running[i]
            ep["states"].append(states[i])
            ep["guesses"].append(guesses[i])
            ep["rewards"].append(float(rewards[i]))
            if terminations[i] or truncations[i]:  # SameStep autoreset: obs[i] starts a new episode
                batch.append(ep)
                running[i] = {"states": [], "guesses": [], "rewards": []}
                states[i] = tuple(map(int, RANGE.search(obs[i]).groups()))
            else:
                states[i] = next_state(states[i], obs[i])
        if len(batch) >= args.batch_episodes:
            s, g, adv = rebn(batch, args.gamma)
            policy.update(s, g, adv, args.lr)
            finished += len(batch)
            returns = [sum(ep["rewards"]) for ep in batch]
            solved = np.mean([ep["rewards"][-1] == 1.0 for ep in batch])
            turns = np.mean([len(ep["rewards"]) for ep in batch])
            if finished // args.batch_episodes % 10 == 1 or finished >= args.episodes:
                print(f"{finished:>9} {np.mean(returns):>12.3f} {solved:>7.0%} {turns:>6.2f}")
            batch = []
    print(f"done in {time.perf_counter() - start:.1f}s")


if __name__ == "__main__":
    main()
