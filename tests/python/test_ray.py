"""geode.ray on a local two-node Ray cluster (``ray.cluster_utils.Cluster``): a vector env spread
over actors gives the results of a local vector env with the same seeds, in slot order, synchronously
and through send/recv; killing one actor mid-run costs only its own slots' episodes."""

import time

import numpy as np
import pytest

import geode
import geode.ray as geode_ray
from conftest import ROOT  # first: it keeps Ray's signal handler off wasmtime's traps

import ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

IDS = ["game:GuessTheNumber-v0-hard"] * 5 + ["game:Mastermind-v0-easy"]


@pytest.fixture(scope="module")
def cluster():
    """A head and a second node on this machine, one CPU and a small object store each."""
    small = {"num_cpus": 1, "object_store_memory": 80 << 20}
    cluster = Cluster(initialize_head=True, head_node_args=small)
    cluster.add_node(**small)
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
    cluster.wait_for_nodes()
    yield cluster
    ray.shutdown()
    cluster.shutdown()


def action(t: int, i: int) -> str:
    return f"\\boxed{{{(t * 7 + i * 3) % 20 + 1}}}"


def same(a, b):
    obs_a, *rest_a = a
    obs_b, *rest_b = b
    assert obs_a == obs_b
    for x, y in zip(rest_a, rest_b):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)
        else:
            assert x == y


def test_results_equal_a_local_vector_env(cluster):
    assert len(ray.nodes()) == 2
    local = geode.make_vec(IDS, seed=10)
    remote = geode_ray.make_vec(IDS, seed=10, num_workers=2, num_cpus_per_worker=0.5)
    try:
        pids = ray.get([w.pid.remote() for w in remote.workers])
        assert len(set(pids)) == 2
        same(remote.reset(), local.reset())
        for t in range(8):
            actions = [action(t, i) for i in range(len(IDS))]
            same(remote.step(actions), local.step(actions))
            assert remote.final_observations == local.final_observations
        # A partial step keeps the order of the keys given.
        partial = {4: action(9, 4), 1: action(9, 1)}
        same(remote.step(partial), local.step(partial))
        same(remote.reset(seed=3), local.reset(seed=3))
    finally:
        remote.close()


def test_send_recv_keeps_each_slots_order(cluster):
    local = geode.make_vec(IDS, seed=4)
    remote = geode_ray.make_vec(IDS, seed=4, num_workers=2, num_cpus_per_worker=0.5,
                                async_mode=True)
    try:
        same(remote.reset(), local.reset())
        for t in range(4):
            actions = [action(t, i) for i in range(len(IDS))]
            expected = local.step(actions)
            remote.send(list(range(len(IDS))), actions)
            got = {}
            while len(got) < len(IDS):
                idx, obs, rewards, terms, truncs, infos = remote.recv(min_batch=1, timeout=60)
                for k, i in enumerate(idx):
                    got[int(i)] = (obs[k], rewards[k], terms[k], truncs[k], infos[k])
            for i in range(len(IDS)):
                assert got[i][0] == expected[0][i] and got[i][1] == expected[1][i]
                assert got[i][2] == expected[2][i] and got[i][4] == expected[4][i]
    finally:
        remote.close()


def kill_and_wait(actor, seconds: float = 60.0) -> None:
    """Kills `actor` and returns once a call to it fails: `ray.kill` only sends the kill, and a
    step sent before it lands would still be answered."""
    ray.kill(actor, no_restart=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            ray.get(actor.pid.remote(), timeout=seconds)
        except ray.exceptions.RayActorError:
            return
        time.sleep(0.05)
    raise AssertionError(f"the actor still answers {seconds} s after ray.kill")


def test_a_killed_actor_loses_only_its_own_slots(cluster):
    ids = ["game:GuessTheNumber-v0-hard"] * 4
    local = geode.make_vec(ids, seed=20)
    remote = geode_ray.make_vec(ids, seed=20, num_workers=2, num_cpus_per_worker=0.5)
    try:
        same(remote.reset(), local.reset())
        for t in range(2):
            actions = [action(t, i) for i in range(4)]
            same(remote.step(actions), local.step(actions))
        kill_and_wait(remote.workers[1])
        actions = [action(2, i) for i in range(4)]
        obs, rewards, terms, truncs, infos = remote.step(actions)
        expected = local.step(actions)
        # Slots 0 and 1 (the live actor) go on with their episodes exactly.
        assert obs[:2] == expected[0][:2] and infos[:2] == expected[4][:2]
        np.testing.assert_array_equal(rewards[:2], expected[1][:2])
        # Slots 2 and 3 report the dead actor and start over in a new one.
        for i in (2, 3):
            assert infos[i]["error_type"] == "WorkerDiedError"
            assert isinstance(remote.errors[i], geode_ray.WorkerDiedError)
            assert "Guess The Number" in obs[i] and rewards[i] == 0.0
        assert remote.errors[:2] == [None, None]
        # Every slot steps on afterwards.
        obs, *_ , infos = remote.step([action(3, i) for i in range(4)])
        assert all("error" not in info for info in infos)
        assert obs[:2] == local.step([action(3, i) for i in range(4)])[0][:2]
    finally:
        remote.close()


def test_example_runs():
    """examples/python/ray_vector.py (its own local Ray, checked against a local vector env)."""
    import subprocess
    import sys

    from conftest import ROOT

    out = subprocess.run([sys.executable, str(ROOT / "examples/python/ray_vector.py"), "--steps", "5"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "RayVectorEnv(8 envs over 2 Ray actors): 5 steps" in out.stdout


def test_traps_stay_typed_errors_with_ray_running(cluster, hostile):
    """With Ray started in this process and in the actors, a guest trap is still a typed error
    (Ray's own failure signal handler would turn it into a crash)."""
    env = geode.make("hostile:healthy")
    env.reset()
    with pytest.raises(geode.GuestTrapError):
        env.step("trap")
    wasm = str(ROOT / "target/plugins/wasm32-wasip2/plugin/hostile.wasm")

    @ray.remote(num_cpus=0.5, runtime_env={"env_vars": {"RAY_DISABLE_FAILURE_SIGNAL_HANDLER": "1"}})
    def trap_in_a_worker():
        import geode

        geode.load_plugin(wasm)
        env = geode.make("hostile:healthy")
        env.reset()
        try:
            env.step("trap")
        except geode.GuestTrapError as e:
            return type(e).__name__
        return "no error"
    assert ray.get(trap_in_a_worker.remote()) == "GuestTrapError"
