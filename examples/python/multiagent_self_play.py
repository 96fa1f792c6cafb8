#!/usr/bin/env python3
"""Multi-agent envs for training: self-play with one policy for every agent, and one seat of a
game as a single-agent env against a fixed opponent.

`policy(batch)` below stands where a trainer calls its LLM: it gets a batch of observations
(one per agent whose turn it is, across all episodes) and returns one action per observation.
Here it is a small rule-based player (win if you can, block if you must, else a random empty
cell) for TicTacToe, and a scripted informant/answerer pair for FactRelay, so the script runs
in seconds on a CPU.

    bash host/python/dev-install.sh
    target/py-venv/bin/python examples/python/multiagent_self_play.py [--envs 64] [--steps 300]
"""

import argparse
import random
import re
import time

import geode as gem
from geode.envs.multiagent import SelfPlayVectorEnv, SingleAgentEnv

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
rng = random.Random(0)


def board_of(observation):
    """The 9 cells ('X', 'O' or the free cell's number) from a TicTacToe observation."""
    rows = [line.split("|") for line in observation.splitlines() if line.count("|") == 2]
    return [cell for row in rows[:3] for cell in row]


def tictactoe_move(agent, observation):
    """Win, else block, else a random free cell."""
    me, them = ("X", "O") if agent == "player_0" else ("O", "X")
    board = board_of(observation)
    free = [i for i, c in enumerate(board) if c not in ("X", "O")]
    for mark in (me, them):
        for line in LINES:
            marks = [board[i] for i in line]
            empty = [i for i in line if i in free]
            if marks.count(mark) == 2 and len(empty) == 1:
                return f"\\boxed{{{empty[0] + 1}}}"
    return f"\\boxed{{{rng.choice(free) + 1}}}"


def factrelay_move(agent, observation):
    """The informant tells every fact; the answerer answers once the facts arrived."""
    if agent == "informant":
        return " ".join(line for line in observation.splitlines() if line.startswith("The "))
    item = re.search(r"Where is the (\w+)\?", observation).group(1)
    told = re.search(rf"The {item} is in the (\w+)\.", observation.split("Messages:")[-1])
    return f"\\boxed{{{told.group(1)}}}" if "Messages:" in observation and told else "Which facts do you see?"


def policy(batch, move):
    """One call for the whole batch, as an LLM generation call would be."""
    return [move(agent, observation) for _, agent, observation in batch]


def self_play(env_id, move, envs, steps):
    vec = SelfPlayVectorEnv(gem.make(env_id), num_envs=envs)
    turns = vec.reset(seed=0)
    started = time.perf_counter()
    for _ in range(steps):
        turns, report = vec.step(policy(turns, move))
        assert all(entry["error"] is None for entry in report)
    elapsed = time.perf_counter() - started
    returns = vec.finished
    mean = {a: sum(r.get(a, 0.0) for r in returns) / len(returns) for a in returns[0]}
    print(f"self-play {env_id}: {len(returns)} episodes, {envs * steps / elapsed:.0f} env steps/s, mean returns {mean}")


def versus_random(games):
    env = SingleAgentEnv(gem.make("ma:TicTacToe-v0"), "player_0", opponents="random")
    wins = 0
    for seed in range(games):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(tictactoe_move("player_0", obs))
            done = terminated or truncated
        wins += reward == 1.0
    print(f"single-agent view: rule-based player_0 won {wins} of {games} games against the random opponent")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    self_play("ma:TicTacToe-v0", tictactoe_move, args.envs, args.steps)
    self_play("ma:FactRelay-v0", factrelay_move, args.envs, args.steps)
    versus_random(args.games)


if __name__ == "__main__":
    main()
