"""A vector env spread over Ray actors (``pip install geode[ray]``): the same API and results
as ``geode.make_vec``, with the slots living in ``--workers`` actors that Ray places on the
cluster's nodes (here a local Ray started by ``ray.init()``; pass ``--address`` to join one).

    target/py-venv/bin/python examples/python/ray_vector.py --envs 8 --workers 2
"""

import argparse

import geode
import geode.ray  # before ray: keeps Ray's crash handler off wasmtime's trap signals

import ray


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--address", default=None, help="a Ray cluster to join")
    args = parser.parse_args()
    if args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:  # a Ray of its own on this machine
        ray.init(address="local", num_cpus=args.workers, include_dashboard=False,
                 log_to_driver=False)
    ids = ["game:GuessTheNumber-v0-hard"] * args.envs
    vec = geode.ray.make_vec(ids, seed=0, num_workers=args.workers, num_cpus_per_worker=0.5)
    local = geode.make_vec(ids, seed=0)
    obs, _ = vec.reset()
    assert obs == local.reset()[0]
    returns = [0.0] * args.envs
    for _ in range(args.steps):
        actions = vec.sample_random_action()
        obs, rewards, terminated, truncated, infos = vec.step(actions)
        assert obs == local.step(actions)[0]  # the same results as the local vector env
        returns = [r + x for r, x in zip(returns, rewards)]
    print(f"{vec}: {args.steps} steps, returns {[round(float(r), 2) for r in returns]}")
    vec.close()
    ray.shutdown()


if __name__ == "__main__":
    main()
