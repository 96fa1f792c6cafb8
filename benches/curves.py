#!/usr/bin/env python3
"""Step latency (p50, p99) and throughput as concurrency grows, per env class, geode next to GEM.

For every env class and every concurrency N (1, 8, 64, 512) a vector env of N envs is built and
stepped in lockstep, SameStep autoreset, every env acting on its own observation:

- game: `game:GuessTheNumber-v0-hard`, a random guess `\\boxed{k}` (k in 1..50) per env and step
  (the same pre-drawn guesses on both sides);
- code: `code:CodeContest` over the shipped sample (host/builtins/src/gem/data), every problem
  answered with its reference solution (read from the sample's generate.py); GEM: its `CodeEnv`
  on the same rows (Hugging Face `datasets` is installed into the GEM venv on first use);
- math: `math:GSM8K` over the shipped sample (host/builtins/src/math/data/gsm8k.jsonl), every
  question answered `\\boxed{truth}`; GEM: its `MathEnv` on the same rows, with its default
  grading worker process per env (`use_mp=True`);
- tool: `tool:python` through GEM's `python_tool` wrapper (5 s timeout, at most 5 uses) over
  GuessTheNumber, every action a tool call running a small program: an episode is 5 tool runs,
  then the same text reaches the game, which ends the episode (no guess in it);
- swe: `swe:all` (geode only: GEM has no such envs), every episode the script `python` tool call,
  `pytest -q`, `submit` (the hidden tests grade the tree), env i starting at script step i mod 3
  so that every batched step mixes the three.

geode: `gem.make_vec` (its sync vector env: a batched step runs the N envs on the machine's
cores). GEM: `SyncVectorEnv` from pip `gem-llm` (its envs stepped one after another in the
calling thread). Each (side, class, N) point runs in a fresh process: build, reset, one
warm-up step, then measured steps until `--seconds` have passed and at least `--min-steps`
were taken (at most `--max-steps`). Step latency is the wall time of one batched step (every
env of the batch waits that long for its result); p50 and p99 are over the measured steps
(nearest rank), throughput is env-steps per second (N * steps / measured time).

A point is not run (its cells show "—" and a footnote says why) when its side has no such env,
when one batched step is projected (from the point at the previous N, linearly in N) to take
longer than `--max-step-seconds`, when GEM's worker process per math env would need more
than half the available memory, or when it fails or passes `--point-timeout`.

    python3 benches/curves.py [--quick] [--out docs/src/benchmarks] [--gem-venv DIR]

The GEM venv is `--gem-venv` if given, else target/bench-venv (created with gem-llm on first
use, as the other benches do); matplotlib is installed into it for the plots. geode runs from
target/py-venv (`bash host/python/dev-install.sh`). Writes the tables to stdout, and
`curves.json`, `p50.svg`, `p99.svg` and `throughput.svg` to `--out`; `--tables-from
curves.json` prints the tables and draws the plots of an earlier run again without measuring.
"""

import argparse
import ast
import datetime
import json
import math
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE_DIR = ROOT / "host" / "builtins" / "src" / "gem" / "data"
MATH_FILE = ROOT / "host" / "builtins" / "src" / "math" / "data" / "gsm8k.jsonl"
GEODE_PYTHON = ROOT / "target" / "py-venv" / "bin" / "python"
WORKDIR = ROOT / "target" / "curves-bench"  # GEM's code runs make temp dirs in their cwd

CLASSES = {  # class -> (geode id, label)
    "game": ("game:GuessTheNumber-v0-hard", "game:GuessTheNumber-v0-hard"),
    "code": ("code:CodeContest", "code:CodeContest"),
    "math": ("math:GSM8K", "math:GSM8K"),
    "tool": ("game:GuessTheNumber-v0-hard", "tool:python (python_tool over GuessTheNumber)"),
    "swe": ("swe:all", "swe:all"),
}
GEM_HAS = {"game", "code", "math", "tool"}
GEM_MB_PER_MATH_ENV = 30  # one grading worker process per GEM MathEnv (benches/math_vs_gem.py)

TOOL_ACTION = "<python>print(sum(i * i for i in range(1000)))</python>"
SWE_SCRIPT = [
    '<tool_call><tool_name>python</tool_name><arguments>{"code": "print(sum(range(10)))"}'
    "</arguments></tool_call>",
    '<tool_call><tool_name>pytest</tool_name><arguments>{"args": ["-q"]}</arguments></tool_call>',
    "<tool_call><tool_name>submit</tool_name><arguments>{}</arguments></tool_call>",
]


# ---------------------------------------------------------------- data and policies (both sides)


def code_rows() -> list:
    """The shipped code sample, each row with its reference solution (from generate.py's
    `add(id, statement, solution, inputs)` calls, read without running it)."""
    tree = ast.parse((CODE_DIR / "generate.py").read_text())
    solutions = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "add":
            solutions[ast.literal_eval(node.args[0])] = ast.literal_eval(node.args[2])
    rows = [json.loads(line) for line in (CODE_DIR / "code_sample.jsonl").read_text().splitlines()]
    for row in rows:
        row["solution"] = solutions[row["id"]]
    return rows


def math_rows() -> list:
    return [json.loads(line) for line in MATH_FILE.read_text().splitlines() if line.strip()]


class Policy:
    """Well-formed actions for one env class, from each env's observation and episode step."""

    def __init__(self, kind: str, n: int):
        self.kind, self.n = kind, n
        self.rng = random.Random(1234)
        self.pos = [i % len(SWE_SCRIPT) if kind == "swe" else 0 for i in range(n)]
        if kind == "code":
            self.answers = {r["problem"].strip(): "```python\n" + r["solution"] + "\n```" for r in code_rows()}
        elif kind == "math":
            self.answers = {r["problem"].strip(): "\\boxed{%s}" % r["answer"] for r in math_rows()}

    def act(self, observations) -> list:
        if self.kind == "game":
            return ["\\boxed{%d}" % self.rng.randint(1, 50) for _ in range(self.n)]
        if self.kind == "tool":
            return [TOOL_ACTION] * self.n
        if self.kind == "swe":
            return [SWE_SCRIPT[p % len(SWE_SCRIPT)] for p in self.pos]
        return [self.answer(obs) for obs in observations]

    def answer(self, obs: str) -> str:
        text = obs.strip()
        if text in self.answers:
            return self.answers[text]
        for question, answer in self.answers.items():  # an observation with a prompt around it
            if question in text:
                return answer
        raise RuntimeError(f"{self.kind}: no reference answer for the observation {obs[:80]!r}")

    def observe(self, terminated, truncated) -> None:
        for i in range(self.n):
            self.pos[i] = 0 if (terminated[i] or truncated[i]) else self.pos[i] + 1


# ---------------------------------------------------------------- vector envs


def geode_vec(kind: str, n: int):
    import geode as gem

    env_id = CLASSES[kind][0]
    wrappers = ["python_tool"] if kind == "tool" else None
    return gem.make_vec([env_id] * n, wrappers=wrappers, seed=0)


def gem_vec(kind: str, n: int):
    import gem
    from gem.vector.sync_vector_env import SyncVectorEnv

    if kind in ("game", "tool"):
        from gem.wrappers.wrapper_factory import get_wrapper_fns

        wrappers = get_wrapper_fns("python_tool") if kind == "tool" else None
        return gem.make_vec([CLASSES[kind][0]] * n, wrappers=wrappers, seed=0)
    from datasets import Dataset

    if kind == "math":
        from gem.envs.math_env import MathEnv

        data = Dataset.from_list(math_rows())
        fns = [lambda i=i: MathEnv(dataset=data, seed=i) for i in range(n)]
    elif kind == "code":
        from gem.envs.code_env import CodeEnv

        rows = [{"problem": r["problem"], "tests": r["tests"] if isinstance(r["tests"], str) else json.dumps(r["tests"])}
                for r in code_rows()]
        data = Dataset.from_list(rows)
        # The dataset name selects CodeEnv's stdin tests (codecontest).
        fns = [lambda i=i: CodeEnv(dataset_name="codecontest-sample", dataset=data, seed=i) for i in range(n)]
    else:
        raise ValueError(f"GEM has no {kind} env")
    return SyncVectorEnv([f"gem-{kind}"] * n, fns)


def measure(side: str, kind: str, n: int, seconds: float, min_steps: int, max_steps: int) -> dict:
    """Build, reset, one warm-up step, then timed batched steps; latencies in seconds."""
    started = time.perf_counter()
    vec = geode_vec(kind, n) if side == "geode" else gem_vec(kind, n)
    policy = Policy(kind, n)
    observations, _ = vec.reset(seed=0)
    build_s = time.perf_counter() - started

    def step(obs):
        actions = policy.act(obs)
        t = time.perf_counter()
        obs, rewards, terminated, truncated, _ = vec.step(actions)
        elapsed = time.perf_counter() - t
        policy.observe(terminated, truncated)
        return obs, elapsed, rewards

    observations, _, _ = step(observations)  # warm-up
    latencies, reward_sum, measured_from = [], 0.0, time.perf_counter()
    while len(latencies) < max_steps and (
        len(latencies) < min_steps or time.perf_counter() - measured_from < seconds
    ):
        observations, elapsed, rewards = step(observations)
        latencies.append(elapsed)
        reward_sum += float(sum(rewards))
    if hasattr(vec, "close"):
        vec.close()
    return {"latencies": latencies, "build_s": build_s, "mean_reward": reward_sum / (n * len(latencies))}


# ---------------------------------------------------------------- the orchestrator


def percentile(values: list, q: float) -> float:
    """Nearest rank: the smallest value with at least q of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def summarize(n: int, raw: dict) -> dict:
    lat = raw["latencies"]
    return {
        "p50_ms": percentile(lat, 0.50) * 1e3,
        "p99_ms": percentile(lat, 0.99) * 1e3,
        "steps_per_s": n * len(lat) / sum(lat),
        "steps": len(lat),
        "build_s": raw["build_s"],
        "mean_reward": raw["mean_reward"],
        "latencies_ms": [round(t * 1e3, 3) for t in lat] if len(lat) <= 50 else None,
    }


def run_point(python: Path, side: str, kind: str, n: int, args) -> dict:
    """One point in a fresh process of `python`; {"skip": reason} when it fails."""
    WORKDIR.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PATH=f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    command = [str(python), str(Path(__file__).resolve()), "--side", side, "--kind", kind, "--n", str(n),
               "--seconds", str(args.seconds), "--min-steps", str(args.min_steps),
               "--max-steps", str(args.max_steps)]
    try:
        out = subprocess.run(command, cwd=WORKDIR, env=env, capture_output=True, text=True,
                             timeout=args.point_timeout)
    except subprocess.TimeoutExpired:
        return {"skip": f"did not finish within {args.point_timeout:g} s"}
    if out.returncode != 0:
        tail = (out.stderr.strip().splitlines() or ["no output"])[-1]
        return {"skip": f"failed: {tail[:200]}"}
    return summarize(n, json.loads(out.stdout.strip().splitlines()[-1]))


def available_mb() -> float:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) / 1024
    return 0.0


def skip_reason(side: str, kind: str, n: int, previous: dict, args) -> str:
    """Why a point is not run, or "" to run it."""
    if side == "gem" and kind not in GEM_HAS:
        return "GEM has no such env"
    if side == "gem" and kind == "math" and n * GEM_MB_PER_MATH_ENV > available_mb() / 2:
        return (f"GEM's MathEnv starts a grading worker process per env: {n} envs need "
                f"~{n * GEM_MB_PER_MATH_ENV / 1024:.0f} GB, over half of the "
                f"{available_mb() / 1024:.0f} GB available")
    if previous and "p50_ms" in previous[1]:
        prev_n, prev = previous
        projected = prev["p50_ms"] / 1e3 * n / prev_n
        if projected > args.max_step_seconds:
            return (f"one batched step projected at ~{projected:.0f} s from {prev['p50_ms'] / 1e3:.1f} s "
                    f"at N={prev_n} (limit {args.max_step_seconds:g} s)")
    if previous and "skip" in previous[1] and "projected" in previous[1]["skip"]:
        return "the smaller N was already over the step-time limit"
    return ""


def gem_python(venv) -> Path:
    if venv is not None:
        python = venv.absolute() / "bin" / "python"
        if subprocess.run([str(python), "-c", "import gem"], capture_output=True).returncode != 0:
            sys.exit(f"{venv}: no python with gem-llm there")
        return python
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from gem_side_by_side import ensure_gem  # creates target/bench-venv with gem-llm

    return ensure_gem()


def ensure_modules(python: Path, modules: dict) -> None:
    """pip-install into `python`'s venv each {import name: package} it cannot import."""
    for module, package in modules.items():
        if subprocess.run([str(python), "-c", f"import {module}"], capture_output=True).returncode != 0:
            subprocess.run([str(python), "-m", "pip", "install", "-q", package], check=True)


def machine_line() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "unknown CPU")
    ram = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
               if line.startswith("MemTotal:")) / 1024 / 1024
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    if subprocess.run(["git", "diff", "--quiet", "HEAD"], cwd=ROOT).returncode != 0:
        commit += " (with uncommitted changes in the tree)"
    load = os.getloadavg()[0]
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"{cpu}, {os.cpu_count()} cores, {ram:.0f} GB RAM, Linux {platform.release()}; "
            f"{when}; geode {commit}; 1-minute load {load:.2f} at the start")


def fmt(point: dict, key: str, notes: list) -> str:
    if "skip" not in point:
        value = point[key]
        if key == "steps_per_s" or value >= 100:
            return f"{value:,.0f}"
        return f"{value:.3f}" if value < 1 else f"{value:.2f}" if value < 10 else f"{value:.1f}"
    if point["skip"] not in notes:
        notes.append(point["skip"])
    return f"— [{notes.index(point['skip']) + 1}]" if key == "p50_ms" else "—"


def tables(results: dict, sizes: list) -> str:
    """One markdown table per class: rows N, geode and GEM p50/p99 (ms) and env-steps/s."""
    notes, out = [], []
    for kind, (_, label) in CLASSES.items():
        out.append(f"**{label}**\n")
        out.append("| N | geode p50 ms | geode p99 ms | geode steps/s | GEM p50 ms | GEM p99 ms | GEM steps/s | steps timed (geode, GEM) |")
        out.append("|---|---|---|---|---|---|---|---|")
        for n in sizes:
            ours, theirs = results["geode"][kind][str(n)], results["gem"][kind][str(n)]
            cells = [fmt(p, k, notes) for p in (ours, theirs) for k in ("p50_ms", "p99_ms", "steps_per_s")]
            timed = ", ".join(str(p.get("steps", "—")) for p in (ours, theirs))
            out.append(f"| {n} | " + " | ".join(cells) + f" | {timed} |")
        out.append("")
    if notes:
        out.append("Not measured:\n")
        out.extend(f"{i}. {note}" for i, note in enumerate(notes, 1))
    return "\n".join(out)


PLOT = r"""
import json, sys
import matplotlib
matplotlib.use("Agg")
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: small files
import matplotlib.pyplot as plt
results, out = json.load(open(sys.argv[1])), sys.argv[2]
metrics = {"p50": ("p50_ms", "p50 step latency (ms)"), "p99": ("p99_ms", "p99 step latency (ms)"),
           "throughput": ("steps_per_s", "throughput (env-steps/s)")}
colors = dict(zip(results["classes"], plt.rcParams["axes.prop_cycle"].by_key()["color"]))
for name, (key, title) in metrics.items():
    fig, ax = plt.subplots(figsize=(8.5, 4.5))
    for kind in results["classes"]:
        for side, style in (("geode", "-"), ("gem", "--")):
            pts = [(int(n), p[key]) for n, p in results[side][kind].items() if key in p]
            if pts:
                ax.plot(*zip(*pts), style, marker="o", color=colors[kind],
                        label=f"{'geode' if side == 'geode' else 'GEM'} {kind}")
    ax.set_xscale("log", base=2); ax.set_yscale("log")
    ax.set_xticks(results["sizes"]); ax.set_xticklabels([str(n) for n in results["sizes"]])
    ax.set_xlabel("concurrent episodes (N)"); ax.set_ylabel(title)
    ax.set_title(title + " vs concurrency (geode solid, GEM dashed)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), handlelength=4)
    fig.tight_layout()
    fig.savefig(f"{out}/{name}.svg", metadata={"Date": None})
"""


def plot(python: Path, results_file: Path, out: Path) -> None:
    ensure_modules(python, {"matplotlib": "matplotlib"})
    subprocess.run([str(python), "-c", PLOT, str(results_file), str(out)], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N in 1, 8 and short points (development)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "src" / "benchmarks")
    parser.add_argument("--gem-venv", type=Path, help="a venv with gem-llm (default: target/bench-venv)")
    parser.add_argument("--sizes", help="comma-separated N (default 1,8,64,512)")
    parser.add_argument("--classes", help=f"comma-separated, of {','.join(CLASSES)}")
    parser.add_argument("--seconds", type=float, default=6.0, help="measuring time per point")
    parser.add_argument("--min-steps", type=int, default=2)
    parser.add_argument("--max-steps", type=int, default=2000)
    parser.add_argument("--max-step-seconds", type=float, default=90.0)
    parser.add_argument("--point-timeout", type=float, default=600.0)
    parser.add_argument("--tables-from", type=Path, help="tables and plots (into --out) of a curves.json, measure nothing")
    parser.add_argument("--side", choices=["geode", "gem"], help=argparse.SUPPRESS)
    parser.add_argument("--kind", help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:  # one point, in the side's own interpreter
        print(json.dumps(measure(args.side, args.kind, args.n, args.seconds, args.min_steps, args.max_steps)))
        return
    if args.tables_from:  # the tables and plots of an earlier run again
        results = json.loads(args.tables_from.read_text())
        plot(gem_python(args.gem_venv), args.tables_from, args.out)
        print(f"Machine: {results['machine']}; {results['load_at_end']:.2f} at the end\n")
        print(tables(results, results["sizes"]))
        return
    if args.quick:
        args.seconds, args.min_steps, args.max_step_seconds = 0.5, 2, 5.0
    sizes = [int(s) for s in (args.sizes or ("1,8" if args.quick else "1,8,64,512")).split(",")]
    kinds = args.classes.split(",") if args.classes else list(CLASSES)
    unknown = set(kinds) - set(CLASSES)
    if unknown:
        sys.exit(f"unknown classes {sorted(unknown)}; known: {', '.join(CLASSES)}")
    if not GEODE_PYTHON.exists():
        sys.exit(f"{GEODE_PYTHON} is missing: run `bash host/python/dev-install.sh` first")
    python = gem_python(args.gem_venv)
    ensure_modules(python, {"datasets": "datasets", "pylatexenc": "pylatexenc", "requests": "requests"})

    machine = machine_line()
    print(machine, flush=True)
    results = {"machine": machine, "sizes": sizes, "classes": kinds,
               "settings": {k: getattr(args, k) for k in ("seconds", "min_steps", "max_steps", "max_step_seconds")},
               "geode": {}, "gem": {}}
    for kind in kinds:
        for side, interpreter in (("geode", GEODE_PYTHON), ("gem", python)):
            points, previous = {}, None
            for n in sizes:
                reason = skip_reason(side, kind, n, previous, args)
                point = {"skip": reason} if reason else run_point(interpreter, side, kind, n, args)
                points[str(n)] = point
                previous = (n, point)
                print(f"{side:5} {kind:5} N={n:<4} " + (f"p50 {point['p50_ms']:.2f} ms, p99 {point['p99_ms']:.2f} ms, "
                      f"{point['steps_per_s']:,.0f} steps/s ({point['steps']} steps, mean reward "
                      f"{point['mean_reward']:.2f})" if "skip" not in point else f"— {point['skip']}"),
                      file=sys.stderr, flush=True)
            results[side][kind] = points
    for side in ("geode", "gem"):  # classes not asked for stay out of the tables
        for kind in CLASSES:
            results[side].setdefault(kind, {str(n): {"skip": "not run (--classes)"} for n in sizes})

    results["load_at_end"] = os.getloadavg()[0]
    args.out.mkdir(parents=True, exist_ok=True)
    results_file = args.out / "curves.json"
    results_file.write_text(json.dumps(results, indent=1) + "\n")
    plot(python, results_file, args.out)
    print(f"\nMachine: {machine}; {results['load_at_end']:.2f} at the end\n")
    print(tables(results, sizes))
    print(f"\nWrote {results_file} and {', '.join(m + '.svg' for m in ('p50', 'p99', 'throughput'))} in {args.out}")


if __name__ == "__main__":
    main()
