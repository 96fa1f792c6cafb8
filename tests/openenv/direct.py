"""geode's direct path, the oracle of the served episodes: plays episodes with the ``geode``
Python package (``target/py-venv``) and prints, as JSON, every episode's first observation and
the (observation, reward, terminated, truncated) of each step. Reads on stdin
``{"id", "config", "wrappers", "episodes": [{"seed" | "index", "actions": [...]}]}``."""

import json
import sys

import geode as gem


def main() -> None:
    request = json.load(sys.stdin)
    env = gem.make(request["id"], wrappers=request["wrappers"], **request["config"])
    out = []
    for episode in request["episodes"]:
        if "index" in episode:
            first, _ = env.reset(idx=episode["index"])
        else:
            first, _ = env.reset(seed=episode["seed"])
        steps = []
        for action in episode["actions"]:
            obs, reward, terminated, truncated, _ = env.step(action)
            steps.append([obs, reward, terminated, truncated])
        out.append({"first": first, "steps": steps})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
