"""A geode env used remotely through OpenEnv's generic client (openenv-core, unmodified).

    cargo build --release -p geode-cli && bash host/serve/openenv-venv.sh
    target/release/geode serve game:GuessTheNumber-v0-hard --port 8000 &
    target/openenv-venv/bin/python examples/serve/openenv_client.py --url http://127.0.0.1:8000

Every WebSocket connection is an isolated geode env on the server; this plays a few episodes
concurrently with a bisecting player and prints their returns.
"""

import argparse
import asyncio
import re

from openenv.core.generic_client import GenericEnvClient

HINT = re.compile(r"guessed (\d+), and the target number is (higher|lower)")
RANGE = re.compile(r"between (\d+) and (\d+)")


async def episode(url: str, seed: int) -> tuple:
    async with GenericEnvClient(base_url=url) as env:
        result = await env.reset(seed=seed)
        text = result.observation["text"]
        lo, hi = map(int, RANGE.search(text).groups())
        total, turns = 0.0, 0
        while not result.done:
            hint = HINT.search(text)
            if hint:
                guess = int(hint.group(1))
                lo, hi = (guess + 1, hi) if hint.group(2) == "higher" else (lo, guess - 1)
            result = await env.step({"message": f"My guess: \\boxed{{{(lo + hi) // 2}}}"})
            text, total, turns = result.observation["text"], total + result.reward, turns + 1
        return seed, turns, total, text


async def main(url: str, episodes: int):
    for seed, turns, total, text in await asyncio.gather(*(episode(url, s) for s in range(episodes))):
        print(f"seed {seed}: return {total:+.1f} in {turns} turns: {text}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--episodes", type=int, default=4)
    args = parser.parse_args()
    asyncio.run(main(args.url, args.episodes))
