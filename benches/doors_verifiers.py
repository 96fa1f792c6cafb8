"""Episodes/s of one verifiers eval over the same geode env, three ways in:

- ``openenv -> geode serve``: verifiers' openenv taskset on ``geode serve`` (Rust, WebSocket);
- ``openenv -> openenv server``: the same taskset on OpenEnv's own Python server (``create_app``
  and uvicorn) hosting geode's Python env through ``geode.openenv``'s ``Environment``;
- ``geode taskset (in process)``: ``geode.verifiers``, stepping the env in the eval's process.

The model server plays the model (``bisect`` for GuessTheNumber, ``math`` for a math id) through
verifiers' tool-less chat harness in local subprocesses, as in ``tests/doors/verifiers``. Each
eval runs ``--episodes`` episodes at once; the servers start, and every path is warmed, before
the clock does. A second table times the env side alone: the same episodes through OpenEnv's
client (what the openenv taskset uses) or in process, a scripted player instead of the model.
Run in the verifiers door's venv (``bash tests/doors/verifiers/setup.sh``)::

    target/doors/verifiers/venv/bin/python benches/doors_verifiers.py [--episodes 12] [--env ID]
"""

import argparse
import asyncio
import contextlib
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests/doors"))
ANSWERS = str(ROOT / "host/builtins/src/math/data/gsm8k.jsonl")


def openenv_server(env_id: str, port: int) -> None:
    """Serves ``env_id`` on OpenEnv's Python server (runs in its own process)."""
    import uvicorn

    from geode.openenv import create_app

    app = create_app(env_id, max_concurrent_envs=256)
    print(f"listening on http://127.0.0.1:{port}", flush=True)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


@contextlib.contextmanager
def python_openenv(env_id: str):
    """OpenEnv's Python server for ``env_id`` in a child process; yields its URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Its stderr is dropped: uvicorn logs a traceback for every client that closes its socket.
    proc = subprocess.Popen([sys.executable, __file__, "--serve-openenv", env_id, str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        proc.stdout.readline()
        url = f"http://127.0.0.1:{port}"
        import urllib.request
        for _ in range(200):
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(f"{url}/health", timeout=1):
                    break
            time.sleep(0.05)
        else:
            raise RuntimeError(f"OpenEnv's server for {env_id} never answered /health")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def run(env_block: dict, base_url: str) -> tuple:
    """One eval with verifiers' runner: (episodes, seconds, mean reward, failed episodes, mean
    seconds per episode in the chat harness, the agent's share, which includes the model's)."""
    from verifiers.v1.cli.eval.runner import run_eval
    from verifiers.v1.configs.cli.eval import EvalConfig

    with tempfile.TemporaryDirectory() as out:
        config = EvalConfig.model_validate({
            "env": env_block, "model": "geode-test", "push": False, "rich": None, "output_dir": out,
            "client": {"base_url": base_url, "api_key_var": "GEODE_TEST_KEY"},
        })
        start = time.perf_counter()
        episodes = asyncio.run(run_eval(config))
        seconds = time.perf_counter() - start
    rewards = [score.score for e in episodes for t in e.traces for score in t.rewards.values()]
    failed = sum(not e.ok for e in episodes)
    harness = [t.model_dump()["timing"]["agent"]["harness"]["duration"] for e in episodes for t in e.traces]
    return len(episodes), seconds, sum(rewards) / max(len(rewards), 1), failed, sum(harness) / len(harness)


def guess(texts: list) -> str:
    """The env-only runs' scripted player: bisection on GuessTheNumber's hints; any other env
    gets one fixed answer."""
    bounds = re.search(r"between (\d+) and (\d+)", texts[0])
    if not bounds:
        return "\\boxed{0}"
    low, high = int(bounds[1]), int(bounds[2])
    for text in texts[1:]:
        low = max([low, *(int(x) + 1 for x in re.findall(r"higher than (\d+)", text))])
        high = min([high, *(int(x) - 1 for x in re.findall(r"lower than (\d+)", text))])
    return f"\\boxed{{{(low + high) // 2}}}"


async def over_client(url: str, seeds: range) -> None:
    """Episodes through OpenEnv's ``GenericEnvClient`` (what verifiers' openenv taskset uses),
    all at once, one WebSocket session each."""
    from openenv import GenericEnvClient

    async def episode(seed: int) -> None:
        async with GenericEnvClient(base_url=url) as client:
            result = await client.reset(seed=seed)
            texts = [result.observation["text"]]
            while not result.done:
                result = await client.step({"message": guess(texts)})
                texts.append(result.observation["text"])

    await asyncio.gather(*(episode(seed) for seed in seeds))


async def in_process(env_id: str, seeds: range) -> None:
    """The same episodes on geode envs in this process, made and stepped off the event loop as
    ``geode.verifiers`` does."""
    import geode

    async def episode(seed: int) -> None:
        env = await asyncio.to_thread(geode.make, env_id)
        text, _ = await asyncio.to_thread(env.reset, seed=seed)
        texts, done = [text], False
        while not done:
            text, _, terminated, truncated, _ = await asyncio.to_thread(env.step, guess(texts))
            texts.append(text)
            done = terminated or truncated
        await asyncio.to_thread(env.close)

    await asyncio.gather(*(episode(seed) for seed in seeds))


def timed(coroutine) -> float:
    """Seconds ``coroutine`` takes to run."""
    start = time.perf_counter()
    asyncio.run(coroutine)
    return time.perf_counter() - start


def openenv_block(url: str, seeds: range) -> dict:
    """verifiers' openenv taskset on ``url``."""
    return {"taskset": {"id": "openenv", "base_url": url, "resets": [{"seed": s} for s in seeds]},
            "player": {"harness": {"id": "null"}, "runtime": {"type": "subprocess"}}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=12)
    parser.add_argument("--env", default="game:GuessTheNumber-v0-easy")
    parser.add_argument("--env-episodes", type=int, default=256,
                        help="episodes of the env-only runs (scripted player, no model, no harness)")
    parser.add_argument("--serve-openenv", nargs=2, metavar=("ENV_ID", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_openenv:
        return openenv_server(args.serve_openenv[0], int(args.serve_openenv[1]))

    import geode.verifiers as door
    from servers import geode_serve, model_server

    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    policy = ["bisect"] if args.env.startswith("game:GuessTheNumber") else [
        "math", "--answers", ANSWERS, "--p-correct", "1"]
    seeds, env_seeds, warm = range(args.episodes), range(args.env_episodes), range(1000, 1008)
    with geode_serve(args.env) as serve_url, python_openenv(args.env) as python_url, \
            model_server(*policy) as base_url:
        # A fresh server's first sessions are slower: they are timed apart, then every path is warm.
        cold = [(name, timed(over_client(url, warm)))
                for name, url in (("geode serve", serve_url), ("openenv server", python_url))]
        timed(in_process(args.env, warm))
        env_rows = [("OpenEnv client -> geode serve", timed(over_client(serve_url, env_seeds))),
                    ("OpenEnv client -> openenv server", timed(over_client(python_url, env_seeds))),
                    ("geode env (in process)", timed(in_process(args.env, env_seeds)))]
        run(door.env_config(args.env, seeds=[0]), base_url)  # the harness script's venv
        rows = [("openenv -> geode serve", *run(openenv_block(serve_url, seeds), base_url)),
                ("openenv -> openenv server", *run(openenv_block(python_url, seeds), base_url)),
                ("geode taskset (in process)", *run(door.env_config(args.env, seeds=list(seeds)), base_url))]
    print(f"\n{args.env}, {args.episodes} episodes per eval, {os.cpu_count()} cores")
    print(f"| {'door':<28} | episodes | seconds | episodes/s | mean reward | failed | harness s/episode |")
    print(f"|{'-' * 30}|---------:|--------:|-----------:|------------:|-------:|------------------:|")
    for name, count, seconds, reward, failed, harness in rows:
        print(f"| {name:<28} | {count:>8} | {seconds:>7.2f} | {count / seconds:>10.2f} | {reward:>11.2f} "
              f"| {failed:>6} | {harness:>17.2f} |")
    print(f"\nThe env side alone: {args.env_episodes} episodes at once, scripted player, no model or harness")
    print(f"| {'path':<32} | episodes | seconds | episodes/s |")
    print(f"|{'-' * 34}|---------:|--------:|-----------:|")
    for name, seconds in env_rows:
        print(f"| {name:<32} | {args.env_episodes:>8} | {seconds:>7.2f} | {args.env_episodes / seconds:>10.1f} |")
    print("\nA fresh server's first", len(warm), "concurrent episodes (before the runs above): "
          + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in cold))


if __name__ == "__main__":
    main()
