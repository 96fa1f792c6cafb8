#!/usr/bin/env python3
"""Plays the same scripted episodes in GEM and in geode and reports every difference.

For each game id and seed: a GEM env draws a plausible action script with its own
`sample_random_action`; a fresh GEM env and geode (`geode play --json`) are both reset with the
seed and fed that script. Rewards, termination, truncation and observations are compared step by
step. Word games whose word lists differ from GEM's NLTK lists cannot start from the same state;
their observation differences are expected and reported separately.

    python3 benches/gem_games_compare.py [--seeds 20] [--ids game:Mastermind-v0-hard,...]
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gem_side_by_side import ROOT, ensure_gem  # noqa: E402

# Games whose start state depends on data geode ships differently (word lists).
DATA_DIFFERS = ("Wordle", "Hangman", "WordSearch", "Crosswords")
# Games that follow GEM's repository at its latest commit, whose rules changed after the release
# on PyPI that this script installs (FifteenPuzzle: solvable starts, `init_algo`).
NEWER_THAN_RELEASE = ("FifteenPuzzle",)

GEM_SCRIPT = r"""
import json, sys
import gem
env_id, seed, max_steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
drafter = gem.make(env_id)
drafter.reset(seed=seed)
actions = []
for _ in range(max_steps):
    try:
        action = drafter.sample_random_action()
    except Exception:
        action = "\\boxed{1}"
    actions.append(action)
    _, _, term, trunc, _ = drafter.step(action)
    if term or trunc:
        break
env = gem.make(env_id)
obs, info = env.reset(seed=seed)
steps = [{"observation": obs}]
for action in actions:
    obs, reward, term, trunc, info = env.step(action)
    steps.append({"observation": obs, "reward": float(reward), "terminated": bool(term), "truncated": bool(trunc)})
print(json.dumps({"actions": actions, "steps": steps}))
"""


def gem_episode(python: Path, env_id: str, seed: int, max_steps: int) -> dict:
    out = subprocess.run([str(python), "-c", GEM_SCRIPT, env_id, str(seed), str(max_steps)],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "GEM failed")
    return json.loads(out.stdout.strip().splitlines()[-1])


def geode_episode(binary: Path, env_id: str, seed: int, actions: list) -> list:
    feed = "".join(json.dumps(a) + "\n" for a in actions)
    out = subprocess.run([str(binary), "play", env_id, "--seed", str(seed), "--json"],
                         input=feed, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def geode_ids(binary: Path) -> list:
    out = subprocess.run([str(binary), "list"], capture_output=True, text=True, check=True)
    return [line.split()[0] for line in out.stdout.splitlines()[1:] if line.split()[1] == "env"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--max-steps", type=int, default=40)
    parser.add_argument("--ids", default="")
    args = parser.parse_args()
    python = ensure_gem()
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "geode-cli"], cwd=ROOT, check=True)
    binary = ROOT / "target" / "release" / "geode"
    ids = args.ids.split(",") if args.ids else [i for i in geode_ids(binary) if i.startswith("game:")]

    print("| id | episodes | steps | reward/flag diffs | observation diffs | note |")
    print("|---|---|---|---|---|---|")
    for env_id in ids:
        episodes = steps = flag_diffs = obs_diffs = 0
        first_diff = ""
        try:
            for seed in range(args.seeds):
                gem_run = gem_episode(python, env_id, seed, args.max_steps)
                ours = geode_episode(binary, env_id, seed, gem_run["actions"])
                episodes += 1
                for k, (theirs, mine) in enumerate(zip(gem_run["steps"], ours)):
                    steps += k > 0
                    if k > 0 and any(theirs[f] != mine[f] for f in ("reward", "terminated", "truncated")):
                        flag_diffs += 1
                        first_diff = first_diff or f"seed {seed} step {k}: GEM {theirs['reward']},{theirs['terminated']},{theirs['truncated']} vs geode {mine['reward']},{mine['terminated']},{mine['truncated']}"
                    if theirs["observation"] != mine["observation"]:
                        obs_diffs += 1
                        first_diff = first_diff or f"seed {seed} step {k}: observations differ"
        except Exception as error:  # GEM itself failing on an id is worth a row too
            first_diff = f"GEM failed: {error}"
        if any(g in env_id for g in DATA_DIFFERS):
            note = "word lists differ from GEM's (start states cannot match)"
        elif any(g in env_id for g in NEWER_THAN_RELEASE):
            note = "follows GEM's current rules, newer than the PyPI release compared here"
        else:
            note = first_diff
        print(f"| {env_id} | {episodes} | {steps} | {flag_diffs} | {obs_diffs} | {note} |")


if __name__ == "__main__":
    main()
