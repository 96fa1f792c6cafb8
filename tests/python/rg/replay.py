"""Replays the GEM episodes of ``golden.json`` (recorded by ``record_golden.py``) through geode.
Each function returns the mismatches it found (empty when geode did what GEM did).

``python tests/python/rg/replay.py NAME...`` replays those ids (walks through ``make`` and
``make_vec``) and prints the mismatches as JSON, after drawing the global generators to a state
of this run's own: ``test_rg.py`` runs it in a perturbed process (another hash seed, locale,
working directory, directory listing order)."""

import hashlib
import json
import sys
from pathlib import Path

GOLDEN = json.loads(Path(__file__).with_name("golden.json").read_text())


def digest(text):
    return hashlib.sha256(text.encode()).hexdigest()


def _check_step(where, want, got):
    obs, reward, terminated, truncated, info = got
    bad = []
    if "raised" in want:  # GEM's step raised what the scorer raised: geode scores 0 and says so
        if not (reward == 0.0 and terminated and truncated and info.get("error_type") == "ScorerError"
                and want["raised"].split(": ", 1)[-1] in info.get("error", "")):
            bad.append(f"{where}: GEM's scorer raised {want['raised']!r}; geode gave {reward!r} {info!r}")
        return bad
    for key, value in (("obs", obs), ("reward", reward), ("terminated", terminated),
                       ("truncated", truncated), ("info", info)):
        if value != want[key]:
            bad.append(f"{where}: {key} {value!r} != GEM's {want[key]!r}")
    return bad


def replay_episodes(gem, env, episodes, where):
    """Resets and steps ``env`` as the recorded episodes did."""
    bad = []
    for n, ep in enumerate(episodes):
        obs, info = env.reset(seed=ep["reset"]["seed"])
        if digest(obs) != ep["question"]["sha256"]:
            bad.append(f"{where}[{n}] ({ep['kind']}): question {obs[:60]!r} != GEM's {ep['question']['head']!r}")
        if info != ep["reset_info"]:
            bad.append(f"{where}[{n}]: reset info {info!r} != {ep['reset_info']!r}")
        bad += _check_step(f"{where}[{n}] ({ep['kind']})", ep["step"], env.step(ep["step"]["action"]))
    return bad


def replay_id(gem, name):
    """Every recorded case of one id, through ``make``."""
    record = GOLDEN["ids"][name]
    env_id = record["id"]
    if "make_raised" in record:
        try:
            gem.make(env_id)
        except Exception as error:
            got = f"{type(error).__name__}: {error}"[:300]
            return [] if got == record["make_raised"] else [f"{env_id}: make raised {got!r}, GEM {record['make_raised']!r}"]
        return [f"{env_id}: make succeeded; GEM's raised {record['make_raised']!r}"]
    bad = replay_episodes(gem, gem.make(env_id), record["walk"], f"{env_id} walk")
    bad += replay_episodes(gem, gem.make(env_id), record["seeded"], f"{env_id} seeded")
    if "regen" in record:
        env = gem.make(env_id, **record["regen"]["kwargs"])
        bad += replay_episodes(gem, env, record["regen"]["episodes"], f"{env_id} regen")
    return bad


def replay_walk_in_vec(gem, name, async_mode=False):
    """The unseeded walk of one id through a one-env ``make_vec`` (seed 42, GEM's default): each
    step's autoreset poses the next recorded question."""
    record = GOLDEN["ids"][name]
    if "make_raised" in record:
        return []
    walk = record["walk"]
    vec = gem.make_vec([record["id"]], seed=42, async_mode=async_mode)
    obs, infos = vec.reset()
    bad = []
    for n, ep in enumerate(walk):
        where = f"{record['id']} vec walk[{n}]"
        if digest(obs[0]) != ep["question"]["sha256"]:
            bad.append(f"{where}: question {obs[0][:60]!r} != GEM's {ep['question']['head']!r}")
        obs, rewards, terms, truncs, infos = vec.step([ep["step"]["action"]])
        want = ep["step"]
        if "raised" in want:  # the autoreset's info replaces the step's (as in GEM): reward only
            if rewards[0] != 0.0:
                bad.append(f"{where}: scorer raised in GEM; geode gave {rewards[0]!r} {infos[0]!r}")
        elif (float(rewards[0]), bool(terms[0]), bool(truncs[0]), infos[0]) != (
                want["reward"], want["terminated"], want["truncated"], want["info"]):
            bad.append(f"{where}: {(rewards[0], terms[0], truncs[0], infos[0])!r} != GEM's {want!r}")
    vec.close()
    return bad


def replay_vec(gem, case, async_mode=False):
    """A recorded ``make_vec`` of three ids: the reset's questions, a step of right answers."""
    vec = gem.make_vec(case["ids"], seed=case["seed"], async_mode=async_mode)
    obs, _ = vec.reset()
    bad = [f"vec {case['ids']} reset[{i}]: {o[:60]!r} != GEM's {w['head']!r}"
           for i, (o, w) in enumerate(zip(obs, case["reset"])) if digest(o) != w["sha256"]]
    obs, rewards, terms, truncs, infos = vec.step(case["actions"])
    want = case["step"]
    bad += [f"vec {case['ids']} step obs[{i}]: {o[:60]!r} != GEM's {w['head']!r}"
            for i, (o, w) in enumerate(zip(obs, want["obs"])) if digest(o) != w["sha256"]]
    got = ([float(r) for r in rewards], [bool(t) for t in terms], [bool(t) for t in truncs], list(infos))
    if got != (want["rewards"], want["terminated"], want["truncated"], want["infos"]):
        bad.append(f"vec {case['ids']} step: {got!r} != GEM's {want!r}")
    vec.close()
    return bad


if __name__ == "__main__":
    import random
    import time

    import numpy

    import geode as gem

    random.seed(time.time_ns())  # questions must not follow what the process drew before
    numpy.random.seed(time.time_ns() % 2**32)

    found = []
    for name in sys.argv[1:]:
        found += replay_id(gem, name) + replay_walk_in_vec(gem, name)
    print(json.dumps(found))
