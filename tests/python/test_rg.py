"""GEM's ReasoningGym ids (``rg:<name>``), which geode runs in the host's Python.

The replay tests play GEM's recorded episodes (``rg/golden.json``, from ``rg/record_golden.py``:
for every rg id the first unseeded resets answered right, wrong, unboxed and right inside text,
two seeded resets, dataset regeneration for some ids, and two ``make_vec`` of three ids) through
``import geode as gem`` and check the same questions, rewards, flags and infos. GEM itself is
not needed; ReasoningGym is (``pip install 'geode[rg]'``, which dev-install.sh installs)."""

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).with_name("rg")))
import replay  # noqa: E402

GOLDEN = replay.GOLDEN
HASH_DEPENDENT = set(GOLDEN["hash_dependent"])
IN_PROCESS = sorted(n for n in GOLDEN["ids"] if n not in HASH_DEPENDENT or os.environ.get("PYTHONHASHSEED") == "0")

needs_rg = pytest.mark.skipif(
    not __import__("importlib").util.find_spec("reasoning_gym"),
    reason="ReasoningGym is not installed (pip install 'geode[rg]')",
)


def test_every_dataset_of_reasoning_gym_has_an_id(gem):
    from geode.envs.reasoning_gym import DATASETS

    assert len(DATASETS) == 104 and sorted(GOLDEN["ids"]) == list(DATASETS)
    for name in DATASETS:
        spec = gem.ENV_REGISTRY[f"rg:{name}"]
        assert spec.kwargs == {"name": name, "size": 500, "seed": 42}
    try:
        import reasoning_gym
    except ImportError:
        return
    assert sorted(reasoning_gym.factory.DATASETS) == list(DATASETS)


@needs_rg
def test_recorded_episodes_of_every_id_replay(gem):
    """All 104 ids (the hash-dependent ones in the next test): make, reset, step."""
    bad = [m for name in IN_PROCESS for m in replay.replay_id(gem, name)]
    assert not bad, "\n".join(bad[:20])
    assert len(IN_PROCESS) >= 25


@needs_rg
def test_recorded_walks_replay_through_make_vec(gem):
    bad = [m for name in IN_PROCESS for m in replay.replay_walk_in_vec(gem, name)]
    assert not bad, "\n".join(bad[:20])


@needs_rg
def test_hash_dependent_ids_replay_under_the_recorded_hash_seed(gem):
    """These datasets iterate over sets of strings: GEM's questions were recorded under
    PYTHONHASHSEED=0, so they replay in a process with that seed (and this geode)."""
    assert HASH_DEPENDENT
    path = os.pathsep.join([str(Path(gem.__file__).parents[1]), os.environ.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, str(Path(replay.__file__)), *sorted(HASH_DEPENDENT)],
        env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": path}, capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    bad = json.loads(out.stdout.strip().splitlines()[-1])
    assert not bad, "\n".join(bad[:20])


@needs_rg
@pytest.mark.parametrize("async_mode", [False, True])
def test_recorded_vector_envs_replay(gem, async_mode):
    bad = [m for case in GOLDEN["vec"] for m in replay.replay_vec(gem, case, async_mode)]
    assert not bad, "\n".join(bad)


@needs_rg
def test_a_scorer_that_raises_gives_zero_and_says_so(gem):
    """prime_factorization's scorer parses the reply as integers: GEM's step raises ValueError on
    a word; geode's gives 0.0 and names the error."""
    raised = GOLDEN["ids"]["prime_factorization"]["walk"][1]["step"]["raised"]
    assert raised.startswith("ValueError")
    env = gem.make("rg:prime_factorization")
    env.reset()
    obs, reward, terminated, truncated, info = env.step("\\boxed{not a number}")
    assert (obs, reward, terminated, truncated) == (gem.utils.constants.TERMINAL_STATE, 0.0, True, True)
    assert info["error_type"] == "ScorerError"
    assert "score_answer raised ValueError" in info["error"] and "not a number" in info["error"]
    env.reset()
    assert env.step(env.sample_random_action())[1] == 1.0  # the env goes on
    # In a vector env the info reaches the caller when the autoreset waits for the next step.
    vec = gem.make_vec(["rg:prime_factorization", "rg:gcd"], autoreset_mode="NextStep")
    vec.reset()
    _, rewards, terminated, _, infos = vec.step(["\\boxed{x}", "\\boxed{x}"])
    assert list(rewards) == [0.0, 0.0] and all(terminated)
    assert infos[0]["error_type"] == "ScorerError" and "error" not in infos[1]


@needs_rg
def test_make_takes_gems_keywords(gem):
    """size and seed as in GEM (make_vec passes seed + i); unknown keywords are ignored, as GEM's
    env ignores them."""
    a = gem.make("rg:gcd", seed=7, size=3, verbose=True)
    b = gem.make("rg:gcd", seed=7, size=3)
    qa = [a.reset()[0] for _ in range(7)]
    assert qa == [b.reset()[0] for _ in range(7)]
    assert qa[:3] != qa[3:6]  # regenerated past the end
    assert a.env_id == "rg:gcd" and a.unwrapped is a
    with pytest.raises(gem.errors.InvalidStateError):
        gem.make("rg:gcd").step("\\boxed{1}")


@needs_rg
def test_state_and_spawn(gem):
    env = gem.make("rg:leg_counting")
    question, _ = env.reset()
    state = env.get_state()
    assert state["idx"] == 1 and state["data"]["question"] == question
    child = env.spawn(same_state=True)
    assert child.get_state() == state
    assert child.step(env.sample_random_action())[1] == 1.0
    other = gem.make("rg:leg_counting")
    other.set_state(state)
    assert other.step(f"\\boxed{{{state['data']['answer']}}}")[1] == 1.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fresh = env.spawn()
        assert any("same questions" in str(w.message) for w in caught)
        caught.clear()
        reseeded = env.spawn(seed=43)
        assert not caught
    assert fresh.reset()[0] == gem.make("rg:leg_counting").reset()[0]
    assert reseeded.reset()[0] == gem.make("rg:leg_counting", seed=43).reset()[0]


def test_without_the_extra_making_an_rg_id_names_it(gem, monkeypatch):
    monkeypatch.setitem(sys.modules, "reasoning_gym", None)  # `import reasoning_gym` fails
    assert "rg:gcd" in gem.ENV_REGISTRY  # listed all the same
    with pytest.raises(gem.MissingExtraError, match=r"pip install 'geode\[rg\]'") as caught:
        gem.make("rg:gcd")
    assert isinstance(caught.value, ImportError) and "rg:gcd" in str(caught.value)
    with pytest.raises(ImportError, match=r"geode\[rg\]"):
        gem.make_vec(["rg:gcd", "rg:lcm"])
