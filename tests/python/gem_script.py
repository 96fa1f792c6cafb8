"""A script written against GEM's API. It runs unchanged on GEM and on geode: the module comes
from $GEM_MODULE (default ``geode``), i.e. this is ``import geode as gem``. It prints a JSON
transcript of its seeded single-env episodes last, so the two can be compared."""

import importlib
import json
import os

import numpy as np

gem = importlib.import_module(os.environ.get("GEM_MODULE", "geode"))
wrapper_factory = importlib.import_module(gem.__name__ + ".wrappers.wrapper_factory")


class ChatTokenizer:
    """A tokenizer stand-in with ``apply_chat_template``."""

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=True):
        return "".join(f"<{m['role']}>{m['content']}" for m in messages) + "<assistant>"


transcript = []

# 1. Single envs: seeded reset, a fixed policy, step until the episode ends.
for env_id, actions in [
    ("game:GuessTheNumber-v0-hard", ["\\boxed{25}", "\\boxed{12}", "\\boxed{37}", "\\boxed{6}",
                                      "\\boxed{44}", "\\boxed{3}", "\\boxed{19}"]),
    ("game:Mastermind-v0-easy", ["\\boxed{1 2}", "\\boxed{3 4}", "\\boxed{5 6}", "\\boxed{2 1}"] * 3),
]:
    env = gem.make(env_id)
    obs, info = env.reset(seed=42)
    assert isinstance(obs, str) and isinstance(info, dict)
    episode = [obs]
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        assert isinstance(info, dict)
        episode.append([obs, float(reward), bool(terminated), bool(truncated)])
        if terminated or truncated:
            break
    transcript.append(episode)
    assert isinstance(env.sample_random_action(), str)

# 2. Config overrides as keyword arguments.
env = gem.make("game:GuessTheNumber-v0-hard", max_turns=2)
env.reset(seed=1)
done = False
for turn in range(2):
    _, _, terminated, truncated, _ = env.step("\\boxed{1}")
    done = terminated or truncated
assert done, "max_turns=2 must end the episode after two guesses"

# 3. Vector envs with wrappers from the factory, sync and async, full and partial steps.
ids = ["game:GuessTheNumber-v0-hard"] * 3 + ["game:Mastermind-v0-easy"] * 2
guesses = {"game:GuessTheNumber-v0-hard": "\\boxed{%d}", "game:Mastermind-v0-easy": "\\boxed{%d 2}"}
rng = np.random.default_rng(0)
for async_mode in (False, True):
    vec = gem.make_vec(ids, wrappers=wrapper_factory.get_wrapper_fns("concat,episode_tracking"),
                       async_mode=async_mode, seed=0)
    obs, infos = vec.reset(seed=7)
    assert len(obs) == len(infos) == len(ids)
    finished = 0
    for _ in range(40):
        actions = [guesses[i] % rng.integers(1, 7) for i in ids]
        obs, rewards, terminations, truncations, infos = vec.step(actions)
        assert rewards.dtype == np.float64 and terminations.dtype == np.bool_ and truncations.dtype == np.bool_
        assert len(obs) == len(ids) and all("step_counter" in info for info in infos)
        finished += int(np.logical_or(terminations, truncations).sum())
    assert finished > 0, "episodes end and autoreset"
    obs, rewards, terminations, truncations, infos = vec.step({0: "\\boxed{3}", 3: "\\boxed{1 2}"})
    assert len(obs) == 2 and rewards.shape == (2,)

# 4. A chat-template observation wrapper.
chat = wrapper_factory.get_wrapper_fns("concat_chat", tokenizer=ChatTokenizer())
vec = gem.make_vec(["game:GuessTheNumber-v0-easy"] * 2, wrappers=chat, seed=0)
obs, _ = vec.reset(seed=3)
assert obs[0].startswith("<user>") and "<assistant>" in obs[0]  # GEM appends info["suffix"] after the template
obs, *_ = vec.step(["\\boxed{5}", "\\boxed{6}"])
assert "<assistant>\\boxed{5}<user>" in obs[0]

print(json.dumps(transcript))
