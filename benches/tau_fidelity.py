#!/usr/bin/env python3
"""The tau envs' tools against TAU-bench's own, task for task, on TAU-bench's own data.

For each domain (retail, airline): `geode tau-import` reads TAU-bench's directory into a domain
file; geode's tools (the `tau` plugin's code, run natively by its ignored unit test
`gold_hashes_of_a_domain_file`) run each test task's gold actions on a fresh copy of the records;
TAU-bench's Python tools run the same actions on their own fresh copy. Printed: per domain, how
many tasks leave records with the same canonical hash (SHA-256 of the JSON text with keys sorted,
no spaces), and which gold calls either side refused.

    python3 benches/tau_fidelity.py --tau-bench DIR [--domains retail,airline]

Needs the geode binary (target/release/geode), cargo, and a Python that can import TAU-bench's
tools (its `litellm` import is replaced by an empty module here: no model is called).
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = {"retail": ("orders", "products", "users"), "airline": ("flights", "reservations", "users")}


def canonical_hash(data: dict, tables) -> str:
    text = json.dumps({t: data[t] for t in tables}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def tau_bench_side(tau_bench: Path, domain: str) -> list:
    """(hash, errors) per test task, from TAU-bench's own tools."""
    sys.path.insert(0, str(tau_bench))
    sys.modules.setdefault("litellm", types.ModuleType("litellm"))
    sys.modules["litellm"].completion = None
    import importlib
    tools = importlib.import_module(f"tau_bench.envs.{domain}.tools").ALL_TOOLS
    load = importlib.import_module(f"tau_bench.envs.{domain}.data").load_data
    module = importlib.import_module(f"tau_bench.envs.{domain}.tasks_test")
    tasks = getattr(module, "TASKS_TEST", None) or module.TASKS
    by_name = {t.get_info()["function"]["name"]: t for t in tools}
    results = []
    for task in tasks:
        data = load()
        errors = []
        for action in task.actions:
            if action.name in ("respond", "transfer_to_human_agents"):
                continue
            try:
                out = by_name[action.name].invoke(data=data, **action.kwargs)
                if isinstance(out, str) and out.startswith("Error"):
                    errors.append(f"{action.name}: {out}")
            except Exception as e:  # TAU-bench's env turns these into "Error: ..." too
                errors.append(f"{action.name}: Error: {e}")
        results.append((canonical_hash(data, TABLES[domain]), errors))
    return results


def geode_side(tau_bench: Path, domain: str) -> list:
    """(hash, refused calls) per test task, from geode's importer and tools."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{domain}.jsonl"
        subprocess.run([str(ROOT / "target/release/geode"), "tau-import",
                        str(tau_bench / "tau_bench/envs" / domain), "--out", str(out)],
                       check=True, stdout=subprocess.DEVNULL)
        run = subprocess.run(
            ["cargo", "test", "--release", "-q", "-p", "tau", "--lib", "--",
             "--ignored", "--exact", "tests::gold_hashes_of_a_domain_file", "--nocapture"],
            cwd=ROOT, env=dict(os.environ, TAU_DOMAIN_FILE=str(out)),
            capture_output=True, text=True, check=True)
    lines = [json.loads(l[5:]) for l in run.stdout.splitlines() if l.startswith("GOLD ")]
    return [(l["hash"], l["refused"]) for l in lines]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tau-bench", type=Path, required=True, help="a TAU-bench checkout")
    parser.add_argument("--domains", default="retail,airline")
    args = parser.parse_args()
    print("| domain | test tasks | equal records (canonical hash) | gold calls refused: geode / TAU-bench |")
    print("| --- | --- | --- | --- |")
    notes = []
    for domain in args.domains.split(","):
        theirs = tau_bench_side(args.tau_bench, domain)
        ours = geode_side(args.tau_bench, domain)
        assert len(theirs) == len(ours), f"{domain}: {len(theirs)} tasks, geode read {len(ours)}"
        equal = sum(1 for a, b in zip(ours, theirs) if a[0] == b[0])
        refused = (sum(len(a[1]) for a in ours), sum(len(b[1]) for b in theirs))
        print(f"| {domain} | {len(ours)} | {equal} of {len(ours)} | {refused[0]} / {refused[1]} |")
        for i, (a, b) in enumerate(zip(ours, theirs)):
            if a[0] != b[0] or a[1] or b[1]:
                notes.append(f"{domain} task {i}: {'same' if a[0] == b[0] else 'DIFFERENT'} records; "
                             f"geode refused {a[1]}; TAU-bench refused {b[1]}")
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
