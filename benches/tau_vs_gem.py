#!/usr/bin/env python3
"""geode's `tau:Retail-v0` next to GEM's TAU-bench retail example, in one run, on TAU-bench's own
test tasks, with scripted policies on both seats.

Both sides play the same 115 tasks on the same records: geode reads them through
`geode tau-import` (from the TAU-bench copy given), GEM's example (`TauBenchEnv` of its
`examples/multiagent/tau_bench_retail`, from the GEM checkout given) from that copy directly.
The assistant is a script: it asks who the customer is, runs the task's gold actions, then says
the task's outputs; the customer is a script too: it states its instruction, answers a question,
and stops otherwise (GEM's example asks a model through litellm: the bench replaces that one
call). Episodes run `--concurrency` at a time in threads, as the example's own `run_eval.py`
does. Printed: episodes/s for each side and how many episodes scored 1.0; the rewards must agree
task for task, and the records geode's tools leave after each task's gold actions must hash like
those TAU-bench's own Python tools leave.

    python3 benches/tau_vs_gem.py --tau-bench DIR --gem DIR [--concurrency 64] [--rounds 4]

Needs the geode package in target/py-venv (bash host/python/dev-install.sh), the geode binary
(target/release/geode), and a Python with gem-llm and pydantic for GEM's side
(GEODE_BENCH_GEM_PYTHON, default target/bench-venv/bin/python); GEM's own package is taken
from the checkout, whose multi-agent API the example needs.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GEM_PYTHON = Path(os.environ.get("GEODE_BENCH_GEM_PYTHON", ROOT / "target/bench-venv/bin/python"))
GEODE_PYTHON = ROOT / "target/py-venv/bin/python"
STOP = "###STOP###"

# The scripts both sides share, and the episode loop of each side; run in a child process with
# the side's Python. Prints {"seconds": ..., "rewards": {task: reward}}.
SIDE = r'''
import json, sys, time
from concurrent.futures import ThreadPoolExecutor

STOP = "###STOP###"
side, tasks_file, concurrency, rounds, extra = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
tasks = json.load(open(tasks_file))


def customer(instruction, said):
    """The scripted customer: its instruction first, an answer to a question, else the end."""
    if said is None:
        return "Hi. " + instruction.split("\n")[0]
    return "I have told you all I know." if "?" in said else STOP


def assistant_turns(task):
    """The scripted assistant: (kind, payload) turns."""
    yield "say", "Could you give me your email, or your name and zip code?"
    for action in task["actions"]:
        if action["name"] != "respond":
            yield "call", action
    yield "say", "All done. " + " and ".join(task["outputs"])


if side == "geode":
    import geode as gem
    from geode.envs.multiagent import SingleAgentEnv

    def play(index):
        task = tasks[index]
        said = {"last": None}

        def user(agent, observation):
            return customer(task["instruction"], said["last"])

        # 64 threads on a few cores: a call waits for a core on the wall clock, so the deadline
        # is raised from 2 s (fuel still bounds each call's work).
        inner = gem.make("tau:Retail-v0", dataset=extra, limits={"deadline_per_call": 120.0})
        env = SingleAgentEnv(inner, "assistant", opponents={"user": user})
        env.reset(seed=index)
        reward, gold = 0.0, None
        for kind, payload in assistant_turns(task):
            if kind == "call":
                action = ("<tool_call><tool_name>" + payload["name"] + "</tool_name><arguments>"
                          + json.dumps(payload["kwargs"]) + "</arguments></tool_call>")
            else:
                action, said["last"] = payload, payload
            _, r, terminated, truncated, info = env.step(action)
            reward += r
            if terminated or truncated:
                gold = info.get("reward_info", {}).get("gold_database_hash")
                break
        return index, reward, gold
else:
    import types
    sys.modules.setdefault("litellm", types.SimpleNamespace(completion=None))
    # The GEM checkout's own package (its multi-agent API is newer than some releases), then
    # the example beside it.
    import os
    sys.path.insert(0, os.environ["TAU_BENCH_PATH"])
    sys.path.insert(0, extra)
    sys.path.insert(0, extra + "/examples/multiagent/tau_bench_retail")
    from tau_bench_env import TauBenchEnv

    def play(index):
        task = tasks[index]
        env = TauBenchEnv(task_split="test")
        said = {"last": None}
        env._simulate_user = lambda: _reply(env, task, said)
        env.reset(task_index=index)
        reward = 0.0
        for kind, payload in assistant_turns(task):
            if kind == "call":
                action = json.dumps({"name": payload["name"], "kwargs": payload["kwargs"]})
            else:
                said["last"] = payload
                action = json.dumps({"name": "respond", "kwargs": {"content": payload}})
            _, rewards, terminations, truncations, _ = env.step({"assistant": action})
            reward = rewards.get("assistant", 0.0)
            if terminations.get("assistant") or truncations.get("assistant"):
                break
        return index, reward, None

    def gold_hash(task):
        """The canonical hash (geode's) of the records TAU-bench's own tools leave."""
        import hashlib
        env = TauBenchEnv(task_split="test")
        data = env.data
        for action in task["actions"]:
            if action["name"] in env.tools_map and action["name"] not in env.terminate_tools:
                try:
                    env.tools_map[action["name"]].invoke(data=data, **action["kwargs"])
                except Exception:
                    pass
        text = json.dumps({k: data[k] for k in ("orders", "products", "users")}, sort_keys=True,
                          separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()

    def _reply(env, task, said):
        text = customer(task["instruction"], said["last"])
        env.user_messages.append({"role": "assistant", "content": text})
        return text

order = [i for _ in range(rounds) for i in range(len(tasks))]
started = time.perf_counter()
with ThreadPoolExecutor(max_workers=concurrency) as pool:
    results = list(pool.map(play, order))
seconds = time.perf_counter() - started
rewards, golds = {}, {}
for index, reward, gold in results:
    rewards.setdefault(str(index), set()).add(reward)
    golds[str(index)] = gold
if side == "gem":
    golds = {str(i): gold_hash(task) for i, task in enumerate(tasks)}
print(json.dumps({"seconds": seconds, "episodes": len(order), "golds": golds,
                  "rewards": {k: sorted(v) for k, v in rewards.items()}}))
'''


def tasks_of(tau_bench: Path) -> list:
    """TAU-bench's test tasks as plain dicts (through geode's own importer)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "retail.jsonl"
        subprocess.run([str(ROOT / "target/release/geode"), "tau-import",
                        str(tau_bench / "tau_bench/envs/retail"), "--out", str(out)], check=True,
                       stdout=subprocess.DEVNULL)
        rows = [json.loads(line) for line in out.read_text().splitlines()]
    return [r["value"] for r in rows if r["table"] == "tasks"]


def run_side(python: Path, side: str, tasks_file: str, args, extra: str, env=None) -> dict:
    out = subprocess.run([str(python), "-c", SIDE, side, tasks_file, str(args.concurrency),
                          str(args.rounds), extra], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit(f"{side} side failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tau-bench", type=Path, required=True, help="a TAU-bench checkout")
    parser.add_argument("--gem", type=Path, required=True, help="a GEM checkout (its examples/)")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=4, help="times each task is played")
    args = parser.parse_args()

    tasks = tasks_of(args.tau_bench)
    with tempfile.TemporaryDirectory() as tmp:
        tasks_file = str(Path(tmp) / "tasks.json")
        Path(tasks_file).write_text(json.dumps(tasks))
        domain = str(Path(tmp) / "retail.jsonl")
        subprocess.run([str(ROOT / "target/release/geode"), "tau-import",
                        str(args.tau_bench / "tau_bench/envs/retail"), "--out", domain],
                       check=True, stdout=subprocess.DEVNULL)
        geode = run_side(GEODE_PYTHON, "geode", tasks_file, args, domain)
        gem_env = dict(os.environ, TAU_BENCH_PATH=str(args.tau_bench))
        gem = run_side(GEM_PYTHON, "gem", tasks_file, args, str(args.gem), gem_env)

    print(f"{len(tasks)} tasks x {args.rounds} rounds, {args.concurrency} episodes at a time, "
          "scripted assistant and customer\n")
    print("| | episodes/s | episodes scoring 1.0 |")
    print("| --- | --- | --- |")
    for name, side in (("geode tau:Retail-v0", geode), ("GEM's tau_bench_retail example", gem)):
        wins = sum(1 for rewards in side["rewards"].values() if rewards == [1.0])
        print(f"| {name} | {side['episodes'] / side['seconds']:,.1f} | {wins * args.rounds} of {side['episodes']} |")
    differ = [k for k in geode["rewards"] if geode["rewards"][k] != gem["rewards"].get(k)]
    print(f"\nrewards equal task for task: {len(tasks) - len(differ)} of {len(tasks)}"
          + (f" (differ: {', '.join(differ)})" if differ else ""))
    same = sum(1 for k, h in gem["golds"].items() if geode["golds"].get(k) == h)
    print(f"gold records equal to those TAU-bench's own tools leave (canonical hash): "
          f"{same} of {len(tasks)}")


if __name__ == "__main__":
    main()
