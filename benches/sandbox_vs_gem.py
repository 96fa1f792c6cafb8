#!/usr/bin/env python3
"""geode's code sandbox next to GEM's `run_python` and native CPython, on the same programs.

geode: `cargo bench -p geode-benches --bench sandbox -- --json` (one fresh wasm instance per
run). GEM: `gem.utils.sandbox.run_python` (a `python -c` subprocess per run, no isolation),
from the venv of `--gem-venv` (default: /tmp/gemvenv if it has gem, else target/bench-venv,
created on first use); its bin directory is put on PATH because GEM runs `python`. Native: the
CPU-bound program in the same interpreter. Throughput is runs/s of the small program on a pool
of 1 and of 2 threads (rayon for geode, a ThreadPoolExecutor for GEM). geode's runs also on one
core: its bench pinned to one CPU, where no teardown moves to an idle second core as it does
for "1 thread" on two; runs/s on 2 threads over that is how runs scale with cores.

Judging an answer that loops forever: `while True: pass` for the sample problem with the most
tests (12 run), GEM's fixed 10 s per-test timeout on both sides (GEM: 5 worker threads, every
test runs to its timeout; geode: tests in parallel, stop at the first failure, one 10 s budget
for the answer).

A small numpy program (the same sum through an array): GEM's subprocess imports numpy each
run; geode runs it in the runner built with numpy.

geode only: instantiation time and resident memory per live instance of the Python runner, and
of the runner with numpy (`--baseline-wasm FILE` also measures another runner component, such as one built from an
older guest, for comparison).

End-to-end reward time: every problem of the shipped code sample
(host/builtins/src/gem/data) answered with its reference solution (read from the sample's
generate.py), graded by geode's `code:CodeContest` and by GEM's `CodeEnv` (its step: extract
the code, run the at most 12 longest tests on its default pool of 5 threads, compare). GEM's
`CodeEnv` needs Hugging Face `datasets`, installed into the GEM venv on first use.

The CPU-bound program set (benches/programs: loops, recursion, dynamic programming, graph
search, sorting, dicts, big integers, strings, classes, a sieve, heaps, numpy): the best of 3
runs of each program natively (in-process `exec` in the GEM venv's CPython, which has numpy),
in geode's sandbox from Rust (the sandbox bench's `--programs`) and through the Python sandbox
API (`geode.sandbox.run` in target/py-venv), with each ratio to native and their geometric
means. `--programs-only` measures only that.

    python3 benches/sandbox_vs_gem.py [--gem-venv /tmp/gemvenv] [--runs 200] [--baseline-wasm F]
    python3 benches/sandbox_vs_gem.py --programs-only
"""

import argparse
import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
SAMPLE_DIR = ROOT / "host" / "builtins" / "src" / "gem" / "data"

# The same programs as benches/sandbox.rs.
SMALL = "print(sum(map(int, input().split())))"
SMALL_STDIN = "1 2 3 4 5 6 7 8 9 10\n"
CPU_BOUND = "s = 0\nfor i in range(2_000_000):\n    s = (s + i * i) % 1_000_003\nprint(s)"
SMALL_NUMPY = "import numpy as np\nprint(np.array(input().split(), dtype=int).sum())"

GEM_DRIVER = r"""
import json, sys, time
from concurrent.futures import ThreadPoolExecutor
from gem.utils.sandbox import run_python
small, stdin, cpu, runs, small_numpy = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
def once(program=small):
    ok, out, err = run_python(program, "none", stdin=stdin)
    assert ok and out == "55\n", (ok, out, err)
times = []
for _ in range(runs):
    t = time.perf_counter(); once(); times.append(time.perf_counter() - t)
times.sort()
numpy_times = []
for _ in range(max(10, runs // 4)):
    t = time.perf_counter(); once(small_numpy); numpy_times.append(time.perf_counter() - t)
numpy_times.sort()
cpu_times = []
for _ in range(3):
    t = time.perf_counter(); ok, out, err = run_python(cpu, "none"); cpu_times.append(time.perf_counter() - t)
    assert ok, err
def rate(threads):
    with ThreadPoolExecutor(threads) as pool:
        t = time.perf_counter()
        list(pool.map(lambda _: once(), range(runs)))
        return runs / (time.perf_counter() - t)
native = []
for _ in range(3):
    t = time.perf_counter(); exec(compile(cpu, "<cpu>", "exec"), {"print": lambda *a: None}); native.append(time.perf_counter() - t)
print(json.dumps({
    "small_p50_ms": times[len(times) // 2] * 1e3,
    "small_p99_ms": times[min(len(times) - 1, round((len(times) - 1) * 0.99))] * 1e3,
    "numpy_p50_ms": numpy_times[len(numpy_times) // 2] * 1e3,
    "cpu_bound_ms": min(cpu_times) * 1e3,
    "runs_per_s_1_thread": rate(1),
    "runs_per_s_2_threads": rate(2),
    "native_cpu_bound_ms": min(native) * 1e3,
}))
"""


GEM_CODE_DRIVER = r"""
import json, sys, time
from datasets import Dataset
from gem.envs.code_env import CodeEnv
sample, solutions, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [json.loads(line) for line in open(sample)]
programs = json.load(open(solutions))
tests = [r["tests"] if isinstance(r["tests"], str) else json.dumps(r["tests"]) for r in rows]
dataset = Dataset.from_list([{"problem": r["problem"], "tests": t} for r, t in zip(rows, tests)])
env = CodeEnv(dataset_name="codecontest-sample", dataset=dataset)  # the name selects stdin tests
def round_times():
    times = []
    for row, test_text, program in zip(rows, tests, programs):
        started = time.perf_counter()
        env.set_state({"first_obs": row["problem"], "tests": json.loads(test_text)})
        reward = env.step("```python\n" + program + "\n```")[1]
        times.append(time.perf_counter() - started)
        assert reward == 1.0, (row["id"], reward)
    return times
round_times()  # warm-up
timed = [round_times() for _ in range(rounds)]
median = lambda xs: sorted(xs)[len(xs) // 2] * 1e3
looping = max(rows, key=lambda r: len(json.loads(r["tests"]) if isinstance(r["tests"], str) else r["tests"]))
env.set_state({"first_obs": looping["problem"], "tests": json.loads(looping["tests"]) if isinstance(looping["tests"], str) else looping["tests"]})
started = time.perf_counter()
assert env.step("```python\nwhile True:\n    pass\n```")[1] == 0.0
loop_ms = (time.perf_counter() - started) * 1e3
print(json.dumps({
    "code_sample_ms": median([sum(r) for r in timed]),
    "code_sample_per_problem_ms": {row["id"]: median([r[k] for r in timed]) for k, row in enumerate(rows)},
    "loop_judge_ms": loop_ms,
}))
"""


PROGRAMS_DIR = ROOT / "benches" / "programs"
GEODE_PYTHON = ROOT / "target" / "py-venv" / "bin" / "python"

# Best of 3 in-process runs of each program file given, in ms (stdout discarded).
NATIVE_PROGRAMS_DRIVER = r"""
import contextlib, io, json, pathlib, sys, time
best = {}
for path in map(pathlib.Path, sys.argv[1:]):
    code = compile(path.read_text(), str(path), "exec")
    times = []
    for _ in range(3):
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, {"__name__": "__main__"})
        times.append(time.perf_counter() - started)
    best[path.stem] = min(times) * 1e3
print(json.dumps(best))
"""

# The same through geode's Python sandbox API: each run is a fresh sandboxed instance.
GEODE_API_PROGRAMS_DRIVER = r"""
import json, pathlib, sys
import geode.sandbox
best = {}
for path in map(pathlib.Path, sys.argv[1:]):
    code = path.read_text()
    outcomes = [geode.sandbox.run(code, timeout=120) for _ in range(3)]
    for outcome in outcomes:
        assert outcome.success, (path.name, outcome.status, outcome.stderr[-2000:])
    best[path.stem] = min(o.elapsed for o in outcomes) * 1e3
print(json.dumps(best))
"""


def run_json(argv, **kwargs) -> dict:
    """Runs `argv` and parses the last line of its output as JSON; exits on a failure."""
    out = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if out.returncode != 0:
        sys.exit(f"{argv[0]} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def geometric_mean(values) -> float:
    values = list(values)
    product = 1.0
    for value in values:
        product *= value
    return product ** (1 / len(values))


def program_set(gem_python_path: Path, geode_bench) -> None:
    """Prints the program set's table: native, geode from Rust, geode through Python."""
    files = sorted(str(p) for p in PROGRAMS_DIR.glob("*.py"))
    native = run_json([str(gem_python_path), "-c", NATIVE_PROGRAMS_DRIVER, *files])
    rust = {name: row["ms"] for name, row in geode_bench("--programs", str(PROGRAMS_DIR)).items()}
    api = run_json([str(GEODE_PYTHON), "-c", GEODE_API_PROGRAMS_DRIVER, *files])
    print("CPU-bound programs, best of 3 (ms; ratio to native CPython):\n")
    print("| program | native | geode sandbox (Rust) | ratio | geode.sandbox.run | ratio |")
    print("|---|---|---|---|---|---|")
    for name in native:
        print(f"| {name} | {native[name]:,.1f} | {rust[name]:,.1f} | {rust[name] / native[name]:.2f}x "
              f"| {api[name]:,.1f} | {api[name] / native[name]:.2f}x |")
    for label, names in [("geometric mean", list(native)),
                         ("geometric mean without numpy", [n for n in native if not n.startswith("numpy")])]:
        print(f"| **{label}** | | | {geometric_mean(rust[n] / native[n] for n in names):.2f}x "
              f"| | {geometric_mean(api[n] / native[n] for n in names):.2f}x |")
    print()


def reference_solutions() -> list:
    """Each sample row's reference solution, in row order, read from the sample's generate.py
    (its `add(id, statement, solution, inputs)` calls) without running it."""
    tree = ast.parse((SAMPLE_DIR / "generate.py").read_text())
    by_id = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "add":
            by_id[ast.literal_eval(node.args[0])] = ast.literal_eval(node.args[2])
    rows = [json.loads(line) for line in (SAMPLE_DIR / "code_sample.jsonl").read_text().splitlines()]
    return [by_id[row["id"]] for row in rows]


def ensure_datasets(python: Path) -> None:
    """GEM's CodeEnv imports Hugging Face `datasets`, which `gem-llm` does not install."""
    if subprocess.run([str(python), "-c", "import datasets"], capture_output=True).returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", "datasets"], check=True)


def gem_python(venv: Path) -> Path:
    python = venv / "bin" / "python"
    probe = subprocess.run([str(python), "-c", "import gem"], capture_output=True) if python.exists() else None
    if probe is not None and probe.returncode == 0:
        return python
    from gem_side_by_side import ensure_gem  # creates target/bench-venv with gem-llm

    return ensure_gem()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gem-venv", type=Path, default=Path("/tmp/gemvenv"))
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--baseline-wasm", type=Path, help="another runner component to measure")
    parser.add_argument("--programs-only", action="store_true", help="only the CPU-bound program set")
    args = parser.parse_args()

    workdir = ROOT / "target" / "gem-sandbox-bench"  # GEM makes temp dirs in its cwd
    workdir.mkdir(parents=True, exist_ok=True)
    solutions = workdir / "code_sample_solutions.json"
    solutions.write_text(json.dumps(reference_solutions()))

    def geode(*extra):
        bench = subprocess.run(
            ["cargo", "bench", "-q", "-p", "geode-benches", "--bench", "sandbox", "--", "--json",
             *extra],
            cwd=ROOT, capture_output=True, text=True,
        )
        if bench.returncode != 0:
            sys.exit(f"the geode sandbox bench failed:\n{bench.stderr[-3000:]}")
        return json.loads(bench.stdout.strip().splitlines()[-1])

    python = gem_python(args.gem_venv.absolute())
    program_set(python, geode)
    if args.programs_only:
        return
    ours = geode("--solutions", str(solutions))
    baseline = geode("--wasm", str(args.baseline_wasm.absolute()), "--loop-timeout", "1") if args.baseline_wasm else None

    env = dict(os.environ, PATH=f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    out = subprocess.run(
        [str(python), "-c", GEM_DRIVER, SMALL, SMALL_STDIN, CPU_BOUND, str(args.runs), SMALL_NUMPY],
        cwd=workdir, env=env, capture_output=True, text=True, check=True,
    )
    theirs = json.loads(out.stdout.strip().splitlines()[-1])
    ensure_datasets(python)
    out = subprocess.run(
        [str(python), "-c", GEM_CODE_DRIVER, str(SAMPLE_DIR / "code_sample.jsonl"), str(solutions), "5"],
        cwd=workdir, env=env, capture_output=True, text=True,
    )
    if out.returncode != 0:
        sys.exit(f"GEM's CodeEnv run failed:\n{out.stderr[-3000:]}")
    theirs.update(json.loads(out.stdout.strip().splitlines()[-1]))

    rows = [
        ("small stdin program, p50 (ms)", "small_p50_ms", False),
        ("small stdin program, p99 (ms)", "small_p99_ms", False),
        ("small numpy program, p50 (ms)", "numpy_p50_ms", False),
        ("CPU-bound program (ms)", "cpu_bound_ms", False),
        ("runs/s, 1 thread", "runs_per_s_1_thread", True),
        ("runs/s, 2 threads", "runs_per_s_2_threads", True),
        (f"code sample reward, {ours['code_sample_problems']} problems / "
         f"{ours['code_sample_tests']} tests (ms)", "code_sample_ms", False),
        (f"judge a looping answer, 12 tests, {ours['loop_timeout_s']:g} s timeout (ms)", "loop_judge_ms", False),
    ]
    print("| measure | GEM run_python | geode sandbox | geode vs GEM |")
    print("|---|---|---|---|")
    for label, key, higher_is_better in rows:
        a, b = theirs[key], ours[key]
        ratio = b / a if higher_is_better else a / b
        print(f"| {label} | {a:,.2f} | {b:,.2f} | {ratio:.1f}x better |" if ratio >= 1
              else f"| {label} | {a:,.2f} | {b:,.2f} | {1 / ratio:.1f}x worse |")
    print("\nEnd-to-end reward time per problem of the code sample (ms, median of 5 rounds):\n")
    print("| problem | GEM CodeEnv | geode code:CodeContest | geode vs GEM |")
    print("|---|---|---|---|")
    for problem, a in theirs["code_sample_per_problem_ms"].items():
        b = ours["code_sample_per_problem_ms"][problem]
        print(f"| {problem} | {a:,.1f} | {b:,.1f} | " + (f"{a / b:.1f}x better |" if a >= b else f"{b / a:.1f}x worse |"))
    print("\nThe Python runner itself (geode only; GEM starts a process per run instead):\n")
    header = "| measure | this runner |" + (" baseline runner |" if baseline else "")
    print(header)
    print("|---|---|" + ("---|" if baseline else ""))
    for label, key, fmt in [
        ("instantiate (ms, median of 64)", "instantiate_ms", "{:.3f}"),
        ("resident memory per live instance (MiB)", "resident_mb_per_instance", "{:.2f}"),
        ("small program p50 (ms)", "small_p50_ms", "{:.3f}"),
        ("small program p99 (ms)", "small_p99_ms", "{:.3f}"),
        ("runs/s, 1 thread", "runs_per_s_1_thread", "{:,.0f}"),
        ("runs/s, 2 threads", "runs_per_s_2_threads", "{:,.0f}"),
        ("runs/s, 1 core (bench pinned to one CPU)", "runs_per_s_one_core", "{:,.0f}"),
        ("runner with numpy: instantiate (ms, median of 64)", "numpy_instantiate_ms", "{:.3f}"),
        ("runner with numpy: resident memory per live instance (MiB)", "numpy_resident_mb_per_instance", "{:.2f}"),
    ]:
        line = f"| {label} | {fmt.format(ours[key])} |"
        if baseline:
            line += f" {fmt.format(baseline[key]) if key in baseline else '-'} |"
        print(line)
    scaling = ours["runs_per_s_2_threads"] / ours["runs_per_s_1_thread"]
    per_core = ours["runs_per_s_2_threads"] / ours["runs_per_s_one_core"]
    print(f"\n2 threads / 1 thread: {scaling:.2f}x; 2 threads / 1 core: {per_core:.2f}x "
          "(one thread on two cores tears instances down on the idle one)")
    native = theirs["native_cpu_bound_ms"]
    print(f"\nCPU-bound program: native CPython {native:.1f} ms, geode sandbox {ours['cpu_bound_ms']:.1f} ms "
          f"({ours['cpu_bound_ms'] / native:.1f}x native); sandbox load {ours['load_ms']:.0f} ms (cached)")


if __name__ == "__main__":
    main()
