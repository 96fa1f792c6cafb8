"""GEM's ReasoningGym ids (``rg:<name>``), which geode runs in a pinned helper process.

The replay tests play GEM's recorded episodes (``rg/golden.json``, from ``rg/record_golden.py``:
for every rg id the first unseeded resets answered right, wrong, unboxed and right inside text,
two seeded resets, dataset regeneration for some ids, and two ``make_vec`` of three ids) through
``import geode as gem`` and check the same questions, rewards, flags and infos. GEM was recorded
under the conditions geode pins (``geode/envs/reasoning_gym_pins.py``), so the goldens hold on
any machine, in any process. GEM itself is not needed; ReasoningGym is (``pip install
'geode[rg]'``, which dev-install.sh installs)."""

import json
import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).with_name("rg")))
import replay  # noqa: E402

GOLDEN = replay.GOLDEN
IDS = sorted(GOLDEN["ids"])
#: The ids whose questions GEM poses differently on another machine or in another process
#: (``reasoning_gym_pins.py`` says why): string hash seed, global generator state, BLAS kernel,
#: directory listing order.
MACHINE_DEPENDENT = ["codeio", "figlet_font", "isomorphic_strings", "knight_swap",
                     "polynomial_multiplication", "ransom_note", "word_ladder"]
PERTURBED_SITE = Path(__file__).parents[1] / "perturbed"

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
    """All 104 ids: make, reset, step."""
    bad = [m for name in IDS for m in replay.replay_id(gem, name)]
    assert not bad, "\n".join(bad[:20])


@needs_rg
def test_recorded_walks_replay_through_make_vec(gem):
    bad = [m for name in IDS for m in replay.replay_walk_in_vec(gem, name)]
    assert not bad, "\n".join(bad[:20])


@needs_rg
def test_machine_dependent_ids_replay_in_a_perturbed_process(gem):
    """The ids whose GEM questions follow the process and the machine replay the same in a
    process with another hash seed, locale, time zone, working directory, shuffled directory
    listings and disturbed global generators."""
    path = os.pathsep.join([str(PERTURBED_SITE), str(Path(gem.__file__).parents[1]), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONHASHSEED": "7", "PYTHONPATH": path, "GEODE_SHUFFLE_LISTINGS": "7",
           "LC_ALL": "C", "TZ": "Asia/Kolkata"}
    with tempfile.TemporaryDirectory() as cwd:
        out = subprocess.run([sys.executable, str(Path(replay.__file__)), *MACHINE_DEPENDENT],
                             env=env, cwd=cwd, capture_output=True, text=True, timeout=600)
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


@needs_rg
def test_a_scorer_past_its_time_gives_zero_and_the_env_goes_on(gem):
    """Every call into ReasoningGym is bounded: a score that does not come back in time is
    stopped (its helper process killed) and earns 0.0 with ``ScorerTimeout``; the next reset
    starts a new helper and poses the walk's next question."""
    env = gem.make("rg:gcd", score_timeout=1e-6)
    reference = gem.make("rg:gcd")
    assert env.reset()[0] == reference.reset()[0]
    obs, reward, terminated, truncated, info = env.step(env.sample_random_action())
    assert (reward, terminated, truncated) == (0.0, True, True)
    assert info["error_type"] == "ScorerTimeout" and "took longer than" in info["error"]
    assert env.reset()[0] == reference.reset()[0]


@needs_rg
def test_a_killed_helper_is_replaced_on_the_next_call(gem):
    from geode.envs.reasoning_gym_process import ReasoningGymProcess

    env = gem.make("rg:leg_counting")
    env.reset()
    helper = ReasoningGymProcess.shared()._proc
    helper.kill()
    helper.wait()
    assert env.step(env.sample_random_action())[1] == 1.0
    assert ReasoningGymProcess.shared()._proc.pid != helper.pid


@needs_rg
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_process_gets_its_own_helper(gem):
    """A child forked after the helper started must not share the parent's pipes."""
    env = gem.make("rg:gcd")
    first = env.reset()[0]
    pid = os.fork()
    if pid == 0:  # the child: its own helper, the same questions
        code = 1
        try:
            child = gem.make("rg:gcd")
            code = 0 if child.reset()[0] == first and child.step(child.sample_random_action())[1] == 1.0 else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert env.step(env.sample_random_action())[1] == 1.0  # the parent's helper is untouched
