"""Records GEM's ReasoningGym episodes into ``golden.json`` for ``tests/python/test_rg.py``.

Run by hand, in a scratch venv that has GEM and ReasoningGym (never geode's):

    python3 -m venv /work/gem-venv
    /work/gem-venv/bin/pip install gem-llm reasoning-gym==0.1.23
    /work/gem-venv/bin/python tests/python/rg/record_golden.py            # every rg id
    /work/gem-venv/bin/python tests/python/rg/record_golden.py leg_counting gcd   # some

GEM's ``rg:`` env (``gem/envs/reasoning_gym.py``) is the same in gem-llm 0.1.0 and in GEM's
repository at 4069f2f (checked when these goldens were recorded); the script records what the
installed GEM does. For every id it plays, each a fresh ``gem.make``:

- ``walk``: the first unseeded resets of the default env (size 500, seed 42), each answered
  once: right (the entry's own answer boxed), wrong (a boxed string no dataset accepts), unboxed
  (the right answer without a box), right with text around the box (a scorer that raises is
  recorded as ``raised``: GEM's step raises it);
- ``seeded``: ``reset(seed=...)`` twice on a fresh env, answered right;
- ``regen`` (some ids): an env of size 2, seed 5: unseeded resets past the end of the dataset
  (regenerated with ``seed + idx``), then a seeded reset at ``idx + 1 == size``, then unseeded ones;
- ``vec`` (some ids): ``make_vec`` of three ids with ``seed=3``: the reset's questions, a step of
  right answers (rewards and the questions the autoreset poses).

Questions are stored as their sha256 and first characters (``q``) to keep the file small; actions
in full. Rewards, flags and infos as GEM returned them.

GEM runs ReasoningGym in its own process, where some questions depend on the machine and the
process (hash seed, global generator state, BLAS kernel, directory listing order:
``geode/envs/reasoning_gym_pins.py``). geode pins those conditions, and so does this script:
it re-runs itself under the same pinned environment and pins the library the same way before
GEM makes an env, so the goldens are what GEM poses under the pins, on any machine of the
architecture. The pins module imports only the standard library; it is loaded by path."""

import hashlib
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

import gem
import reasoning_gym

HERE = Path(__file__).resolve().parent
OUT = HERE / "golden.json"
PINS = HERE.parents[2] / "host/python/python/geode/envs/reasoning_gym_pins.py"
WRONG = "\\boxed{geode-wrong-answer-7f3a}"
REGEN_IDS = ["leg_counting", "gcd", "spell_backward", "basic_arithmetic", "word_sorting",
             "caesar_cipher", "countdown", "family_relationships", "mini_sudoku", "maze"]
VEC_IDS = [["leg_counting", "gcd", "spell_backward"], ["chain_sum", "letter_counting", "number_sorting"]]


def q(text):
    return {"sha256": hashlib.sha256(text.encode()).hexdigest(), "head": text[:60], "len": len(text)}


def flt(x):
    return float(x) if isinstance(x, (int, float)) or hasattr(x, "__float__") else x


def step(env, action):
    try:
        obs, reward, term, trunc, info = env.step(action)
    except Exception as error:  # GEM's step raises what the scorer raises; geode gives reward 0
        return {"action": action, "raised": f"{type(error).__name__}: {error}"[:300]}
    return {"action": action, "obs": obs, "reward": flt(reward), "terminated": bool(term),
            "truncated": bool(trunc), "info": info}


def answer(env):
    return str(env.unwrapped.data["answer"])


def record_id(name):
    env_id = f"rg:{name}"
    out = {"id": env_id}
    try:
        env = gem.make(env_id)
    except Exception as error:  # GEM cannot make it either: geode must fail the same way
        return {"id": env_id, "make_raised": f"{type(error).__name__}: {error}"[:300]}
    walk = []
    for kind in ("right", "wrong", "unboxed", "right_in_text"):
        obs, info = env.reset()
        a = answer(env)
        action = {"right": f"\\boxed{{{a}}}", "wrong": WRONG, "unboxed": a,
                  "right_in_text": f"Thinking... so the answer is \\boxed{{{a}}}. Done."}[kind]
        walk.append({"reset": {"seed": None}, "question": q(obs), "reset_info": info, "kind": kind,
                     "step": step(env, action)})
    out["walk"] = walk
    env = gem.make(env_id)
    seeded = []
    for seed in (123, 2024):
        obs, info = env.reset(seed=seed)
        seeded.append({"reset": {"seed": seed}, "question": q(obs), "reset_info": info, "kind": "right",
                       "step": step(env, f"\\boxed{{{answer(env)}}}")})
    out["seeded"] = seeded
    if name in REGEN_IDS:
        env = gem.make(env_id, size=2, seed=5)
        regen = []
        for seed in (None, None, None, None, None, 77, None, None, None):
            obs, info = env.reset(seed=seed)
            regen.append({"reset": {"seed": seed}, "question": q(obs), "reset_info": info, "kind": "right",
                          "step": step(env, f"\\boxed{{{answer(env)}}}")})
        out["regen"] = {"kwargs": {"size": 2, "seed": 5}, "episodes": regen}
    return out


def record_vec(names):
    ids = [f"rg:{n}" for n in names]
    vec = gem.make_vec(ids, seed=3)
    obs, infos = vec.reset()
    first = [q(o) for o in obs]
    actions = [f"\\boxed{{{answer(e)}}}" for e in vec.envs]
    obs2, rewards, terms, truncs, infos2 = vec.step(actions)
    return {"ids": ids, "seed": 3, "reset": first, "actions": actions,
            "step": {"obs": [q(o) for o in obs2], "rewards": [float(r) for r in rewards],
                     "terminated": [bool(t) for t in terms], "truncated": [bool(t) for t in truncs],
                     "infos": list(infos2)}}


def load_pins():
    spec = importlib.util.spec_from_file_location("reasoning_gym_pins", PINS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(names):
    pins = load_pins()
    if os.environ.get("GEODE_RG_RECORDING") != "pinned":  # record under geode's pinned conditions
        env = {**pins.pinned_environ(os.environ), "GEODE_RG_RECORDING": "pinned"}
        os.chdir(pins.PINNED_CWD)
        os.execve(sys.executable, [sys.executable, str(Path(__file__).resolve()), *names], env)
    pins.pin_library(reasoning_gym)
    names = names or sorted(reasoning_gym.factory.DATASETS)
    golden = {"gem": getattr(gem, "__version__", "gem-llm 0.1.0"),
              "reasoning_gym": "0.1.23", "wrong_action": WRONG, "ids": {}, "failed": {}, "vec": []}
    for name in names:
        start = time.time()
        try:
            golden["ids"][name] = record_id(name)
        except Exception as error:  # recorded: the replay test skips them with the reason
            golden["failed"][name] = f"{type(error).__name__}: {error}"[:300]
        print(f"{name}: {time.time() - start:.1f}s", file=sys.stderr, flush=True)
    for group in VEC_IDS:
        golden["vec"].append(record_vec(group))
    # One line per id: small, and a diff shows which ids changed.
    lines = [f"{json.dumps(k)}:{json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(',', ':'))}"
             for k, v in golden.items() if k != "ids"]
    ids = [f"{json.dumps(k)}:{json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(',', ':'))}"
           for k, v in sorted(golden["ids"].items())]
    lines.append('"ids":{\n' + ",\n".join(ids) + "\n}")
    OUT.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"{len(golden['ids'])} ids recorded, {len(golden['failed'])} failed -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
