#!/usr/bin/env python3
"""Check the shipped ``swe:*`` tasks natively.

Usage (from the repository root)::

    python3 -m venv /tmp/swe-venv && /tmp/swe-venv/bin/pip install pytest==8.4.2
    /tmp/swe-venv/bin/python host/builtins/src/swe/tasks/check.py            # every task
    /tmp/swe-venv/bin/python host/builtins/src/swe/tasks/check.py NAME ...   # some tasks

Options: ``--python PATH`` runs pytest with another interpreter (default: the
one running this script, which must have pytest installed); ``-v`` prints the
pytest output of failing runs.

A task is a directory beside this file holding ``task.json``, ``repo/``,
``hidden/`` and ``gold.patch`` (see README.md).  For each task this script

* checks the static rules: 5 to 50 files in ``repo/``; text files are UTF-8
  with LF line endings and a final newline; ``task.json`` has a non-empty
  ``problem_statement``, at least 2 FAIL_TO_PASS and 3 PASS_TO_PASS ids, no
  id in both lists, and ``test_paths``; ``gold.patch`` touches no file under
  ``test_paths`` and no ``conftest.py``;
* copies ``repo/`` to a temporary directory, writes ``hidden/`` over it, and
  checks with ``pytest --collect-only`` that every listed id exists;
* runs the listed ids there (``python -P -m pytest -p no:cacheprovider -q
  --junitxml=...``; ``-P`` keeps the working directory off ``sys.path``, so a
  task must make its package importable through its own pytest config) and
  requires every FAIL_TO_PASS id to fail and every PASS_TO_PASS id to pass;
* copies ``repo/`` again, applies ``gold.patch`` with ``git apply -p1``
  (``patch -p1`` when git is missing), writes ``hidden/`` over it, and
  requires every listed id to pass.

It prints one row per task and exits non-zero when any task fails a check.
Only the standard library is used here; pytest is needed in the interpreter
that runs the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

TASKS_DIR = Path(__file__).resolve().parent
MIN_FILES, MAX_FILES = 5, 50
TIMEOUT = 300


def list_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def copy_tree(src: Path, dst: Path) -> None:
    """Copy ``src`` over ``dst`` (merging, files overwritten)."""
    for path in list_files(src):
        target = dst / path.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


def patched_paths(patch_text: str) -> set[str]:
    paths: set[str] = set()
    for line in patch_text.splitlines():
        m = re.match(r"^diff --git a/(\S+) b/(\S+)$", line)
        if m:
            paths.update(m.groups())
            continue
        m = re.match(r"^(?:---|\+\+\+) (?:a|b)/(\S+)", line)
        if m:
            paths.add(m.group(1))
    return paths


def check_text_file(path: Path, rel: str) -> list[str]:
    data = path.read_bytes()
    if b"\0" in data:
        return []  # binary file: nothing to check
    problems = []
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        problems.append(f"{rel}: not UTF-8")
    if b"\r" in data:
        problems.append(f"{rel}: CR line ending")
    if data and not data.endswith(b"\n"):
        problems.append(f"{rel}: no final newline")
    return problems


def nodeid_key(nodeid: str) -> tuple[str, str]:
    """Map a pytest node id to the (classname, name) pair of its JUnit testcase."""
    parts = nodeid.split("::")
    module = parts[0][:-3] if parts[0].endswith(".py") else parts[0]
    classname = ".".join([module.replace("/", ".")] + parts[1:-1])
    return classname, parts[-1]


def pytest_cmd(python: str) -> list[str]:
    return [python, "-P", "-m", "pytest", "-p", "no:cacheprovider"]


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT)


def collect(python: str, tree: Path) -> tuple[set[str], str]:
    proc = run(pytest_cmd(python) + ["--collect-only", "--verbosity=-1"], tree)
    ids = {line.strip() for line in proc.stdout.splitlines() if "::" in line}
    return ids, proc.stdout + proc.stderr


def run_tests(python: str, tree: Path, ids: list[str]) -> tuple[dict[str, str], str, float]:
    """Run ``ids`` in ``tree``; return {nodeid: passed|failed|error|skipped|missing}."""
    report = tree / ".junit-report.xml"
    start = time.monotonic()
    proc = run(pytest_cmd(python) + ["-q", f"--junitxml={report}"] + ids, tree)
    elapsed = time.monotonic() - start
    results: dict[tuple[str, str], str] = {}
    if report.exists():
        for case in ET.parse(report).getroot().iter("testcase"):
            key = (case.get("classname", ""), case.get("name", ""))
            status = "passed"
            for child in case:
                if child.tag in ("failure", "error", "skipped"):
                    status = {"failure": "failed"}.get(child.tag, child.tag)
                    break
            # a test that fails and then errors in teardown shows up twice
            if results.get(key) in (None, "passed"):
                results[key] = status
        report.unlink()
    out = {nid: results.get(nodeid_key(nid), "missing") for nid in ids}
    return out, proc.stdout + proc.stderr, elapsed


def apply_patch(patch: Path, tree: Path) -> tuple[bool, str]:
    if shutil.which("git"):
        cmd = ["git", "apply", "-p1", "--whitespace=nowarn", str(patch)]
    else:
        cmd = ["patch", "-p1", "--batch", "-i", str(patch)]
    proc = run(cmd, tree)
    return proc.returncode == 0, proc.stdout + proc.stderr


def check_task(task: Path, python: str, verbose: bool) -> dict:
    row = {"name": task.name, "files": 0, "f2p": 0, "p2p": 0, "secs": 0.0, "problems": []}
    problems: list[str] = row["problems"]
    repo, hidden, patch = task / "repo", task / "hidden", task / "gold.patch"
    for needed in ("task.json", "repo", "hidden", "gold.patch"):
        if not (task / needed).exists():
            problems.append(f"missing {needed}")
    if problems:
        return row
    try:
        spec = json.loads((task / "task.json").read_text(encoding="utf-8"))
    except ValueError as exc:
        problems.append(f"task.json: {exc}")
        return row

    files = list_files(repo)
    row["files"] = len(files)
    if not MIN_FILES <= len(files) <= MAX_FILES:
        problems.append(f"repo/ has {len(files)} files (want {MIN_FILES}-{MAX_FILES})")
    for path in list_files(task):
        problems.extend(check_text_file(path, str(path.relative_to(task))))

    statement = spec.get("problem_statement")
    if not isinstance(statement, str) or not statement.strip():
        problems.append("empty problem_statement")
    f2p, p2p = spec.get("FAIL_TO_PASS", []), spec.get("PASS_TO_PASS", [])
    test_paths = spec.get("test_paths") or []
    row["f2p"], row["p2p"] = len(f2p), len(p2p)
    if len(f2p) < 2:
        problems.append("fewer than 2 FAIL_TO_PASS ids")
    if len(p2p) < 3:
        problems.append("fewer than 3 PASS_TO_PASS ids")
    if set(f2p) & set(p2p):
        problems.append("ids in both FAIL_TO_PASS and PASS_TO_PASS")
    if len(set(f2p + p2p)) != len(f2p + p2p):
        problems.append("duplicate ids")
    if not test_paths:
        problems.append("empty test_paths")
    if isinstance(statement, str):
        for nid in f2p:
            if nid.split("::")[-1] in statement:
                problems.append(f"problem_statement names hidden test {nid}")

    patch_text = patch.read_text(encoding="utf-8")
    touched = patched_paths(patch_text)
    if not touched:
        problems.append("gold.patch touches no file")
    for rel in sorted(touched):
        if rel == "/dev/null":
            continue
        if Path(rel).name == "conftest.py":
            problems.append(f"gold.patch touches {rel}")
        for tp in test_paths:
            tp = tp.rstrip("/")
            if rel == tp or rel.startswith(tp + "/"):
                problems.append(f"gold.patch touches test file {rel}")
    if problems:
        return row

    ids = f2p + p2p
    with tempfile.TemporaryDirectory(prefix=f"swe-{task.name}-") as tmp:
        before, after = Path(tmp, "before"), Path(tmp, "after")
        before.mkdir()
        after.mkdir()
        copy_tree(repo, before)
        copy_tree(hidden, before)

        collected, out = collect(python, before)
        missing = [nid for nid in ids if nid not in collected]
        if missing:
            problems.append(f"ids not collected: {missing}")
            if verbose:
                print(out)
            return row

        results, out, secs = run_tests(python, before, ids)
        row["secs"] += secs
        bad = [f"{nid} {results[nid]}" for nid in f2p if results[nid] not in ("failed", "error")]
        bad += [f"{nid} {results[nid]}" for nid in p2p if results[nid] != "passed"]
        if bad:
            problems.append("untouched tree: " + "; ".join(bad))
            if verbose:
                print(out)

        copy_tree(repo, after)
        ok, out = apply_patch(patch.resolve(), after)
        if not ok:
            problems.append("gold.patch does not apply: " + out.strip())
            return row
        copy_tree(hidden, after)
        results, out, secs = run_tests(python, after, ids)
        row["secs"] += secs
        bad = [f"{nid} {results[nid]}" for nid in ids if results[nid] != "passed"]
        if bad:
            problems.append("with gold.patch: " + "; ".join(bad))
            if verbose:
                print(out)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="task directories to check (default: all)")
    parser.add_argument("--python", default=sys.executable, help="interpreter with pytest")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)

    if run([args.python, "-c", "import pytest"], TASKS_DIR).returncode != 0:
        print(f"pytest is not importable by {args.python}; see the top of {__file__}")
        return 2
    if args.names:
        tasks = [TASKS_DIR / name for name in args.names]
    else:
        tasks = sorted(p.parent for p in TASKS_DIR.glob("*/task.json"))
    if not tasks:
        print("no tasks found")
        return 1

    rows = [check_task(task, args.python, args.verbose) for task in tasks]
    width = max(len(r["name"]) for r in rows)
    print(f"{'task':<{width}}  files  f2p  p2p   secs  result")
    for r in rows:
        result = "ok" if not r["problems"] else "FAIL"
        print(f"{r['name']:<{width}}  {r['files']:>5}  {r['f2p']:>3}  {r['p2p']:>3}"
              f"  {r['secs']:>5.2f}  {result}")
        for problem in r["problems"]:
            print(f"    - {problem}")
    failed = sum(1 for r in rows if r["problems"])
    print(f"{len(rows) - failed}/{len(rows)} tasks ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
