"""The env-facing code paths of GEM's examples (``examples/`` in axon-rl/gem: registering a new
env, and the oat, verl, RL2, OpenRLHF and Tinker training scripts), written as our own loops with
a scripted policy in place of the LLM, all under ``import geode as gem``. Each test names the
script whose calls it makes; what they check is that those calls keep GEM's meaning."""

import asyncio
import json
import random
import string
import time
import uuid
from collections import deque
from copy import deepcopy

import numpy as np
import pytest

import geode  # noqa: F401  (makes `gem` the name of geode, as `import geode as gem` scripts expect)
from gem.core import Env
from gem.utils.constants import TERMINAL_STATE
from gem.utils.parsing import extract_last_boxed_answer

GUESS = "game:GuessTheNumber-v0-easy"


class ChatTokenizer:
    """A tokenizer stand-in with the one method GEM's chat wrappers call."""

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=True):
        return "".join(f"<{m['role']}>{m['content']}" for m in messages) + "<assistant>"


def guess_policy(observations, rng):
    """The scripted policy: a boxed number in 1..20 per observation, sometimes unboxed text."""
    return [f"\\boxed{{{rng.randint(1, 20)}}}" if rng.random() > 0.05 else "no idea" for _ in observations]


class ReverseWord(Env):
    """A new env written in Python against GEM's ``Env`` (register_new_env.py, use case 2)."""

    def __init__(self, length: int = 5, **kwargs):
        super().__init__()
        self.length = length
        self.target = ""

    def reset(self, seed=None):
        super().reset(seed)
        rng = random.Random(seed)
        self.target = "".join(rng.choice(string.ascii_letters) for _ in range(self.length))
        return f"Reverse {self.target} and put the answer in \\boxed{{}}.", {}

    def step(self, action):
        answer = extract_last_boxed_answer(action)
        return TERMINAL_STATE, float(answer == self.target[::-1]), True, False, {}


def test_register_new_env_written_in_python(gem):
    from gem.envs.registration import register

    register("game:ReverseWord-Example", f"{__name__}:ReverseWord", length=7)
    env = gem.make("game:ReverseWord-Example")
    obs, _ = env.reset(seed=3)
    assert env.target in obs and len(env.target) == 7
    assert env.step(f"so: \\boxed{{{env.target[::-1]}}}")[1] == 1.0
    env.reset()
    assert env.step("\\boxed{nope}")[1] == 0.0
    assert env.env_id == "game:ReverseWord-Example"
    vec = gem.make_vec(["game:ReverseWord-Example"] * 3)
    observations, _ = vec.reset(seed=1)
    assert len(observations) == 3


def test_register_new_dataset_with_gem_entry_points(gem, tmp_path):
    # register_new_env.py, use case 1: a new math dataset on GEM's MathEnv class, by name.
    from gem.envs.registration import register

    rows = [{"question": f"What is {a} + {b}?", "solution": str(a + b)} for a, b in [(2, 3), (10, 32), (7, 8)]]
    (tmp_path / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    register(
        "math:Sums-Example",
        "gem.envs.math_env:MathEnv",
        dataset_name=str(tmp_path),
        question_key="question",
        answer_key="solution",
    )
    env = gem.make("math:Sums-Example")
    answers = {r["question"]: r["solution"] for r in rows}
    for _ in range(4):
        obs, _ = env.reset()
        question = next(q for q in answers if q in obs)
        assert env.step(f"The sum is \\boxed{{{answers[question]}}}.")[1] == 1.0
        env.reset()
        assert env.step("\\boxed{-1}")[1] == 0.0
    # The same for a question-answering dataset, given as rows (Tinker's `dataset=` habit).
    register("qa:Capitals-Example", "gem.envs.qa_env:QaEnv", question_key="q", answer_key="a")
    env = gem.make("qa:Capitals-Example", dataset=[{"q": "Capital of France?", "a": ["Paris"]}])
    assert "Capital of France?" in env.reset()[0]
    assert env.step("<answer>Paris</answer>")[1] == 1.0
    with pytest.raises(gem.BadConfigError, match="MathEnv needs `dataset_name` or `dataset`"):
        register("math:Nothing-Example", "gem.envs.math_env:MathEnv")
        gem.make("math:Nothing-Example")


def collect_single(env, min_episodes, rng, fail_every=0):
    """oat's ``collect_experience_single`` (also verl's rollout loop): step the vector env,
    keep transitions per slot, and on a failed generation drop the slot's episode and restart it
    by hand with ``env.envs[i].reset()``."""
    obs, _ = env.reset()
    episodes = [[] for _ in range(env.num_envs)]
    finished = []
    generation = 0
    while len(finished) < min_episodes:
        action = guess_policy(obs, rng)
        next_obs, reward, terminated, truncated, info = env.step(action)
        done = terminated | truncated
        for i in range(env.num_envs):
            generation += 1
            if fail_every and generation % fail_every == 0:
                episodes[i].clear()
                if not done[i]:
                    next_obs[i] = env.envs[i].reset()[0]
                continue
            episodes[i].append((obs[i], action[i], float(reward[i]), bool(done[i])))
            if done[i]:
                finished.append(deepcopy(episodes[i]))
                episodes[i].clear()
        obs = next_obs
    return finished


@pytest.mark.parametrize("async_mode", [False, True])
def test_oat_and_verl_rollout_loop(gem, async_mode):
    from gem.wrappers.wrapper_factory import get_wrapper_fns

    wrappers = get_wrapper_fns("concat_chat", tokenizer=ChatTokenizer())
    env = gem.make_vec(
        [GUESS] * 4,
        vec_kwargs=[{"seed": 11 + j} for j in range(4)],
        wrappers=wrappers,
        async_mode=async_mode,
    )
    finished = collect_single(env, 12, random.Random(0), fail_every=7)
    assert len(finished) >= 12
    for episode in finished:
        assert episode[-1][3] and not any(done for *_, done in episode[:-1])
        first_obs = episode[0][0]
        # Every kept episode starts from a fresh observation (autoreset or the manual reset),
        # wrapped by the chat layer.
        # (GEM's chat layer puts the env's `suffix` info after the generation prompt.)
        assert first_obs.startswith("<user>") and first_obs.endswith("<assistant>Enter your next guess.")
        assert first_obs.count("<user>") == 1
        assert all(r in (-0.1, 0.0, 1.0) or 0.0 < r < 1.0 for *_, r, _ in episode)


def test_oat_grpo_groups_restore_states(gem):
    """oat's ``collect_experience_multiple``: a group of ``num_samples`` slots starts from one
    stored state (``get_state`` + deepcopy + ``set_state`` on ``env.envs[i]``); the same actions
    from the same state give the same transitions in every slot."""
    num_samples = 3
    env = gem.make_vec([GUESS] * num_samples, vec_kwargs=[{"seed": 5 + j} for j in range(num_samples)])
    assert hasattr(env.envs[0], "get_state") and hasattr(env.envs[0], "set_state")
    obs, _ = env.reset()
    initial_obs, _ = env.envs[0].reset()
    stored = deepcopy(env.envs[0].get_state())
    queue = deque(deepcopy(stored) for _ in range(num_samples))
    assert env.envs[0] not in queue  # the membership test oat makes on its queues
    group_id = str(uuid.uuid4())
    for i in range(num_samples):
        env.envs[i].set_state(deepcopy(queue.popleft()))
        obs[i] = deepcopy(initial_obs)
    transcripts = [[] for _ in range(num_samples)]
    for guess in (10, 5, 15, 3, 18, 1, 20, 12, 7, 9):
        next_obs, reward, terminated, truncated, _ = env.step([f"\\boxed{{{guess}}}"] * num_samples)
        done = terminated | truncated
        for i in range(num_samples):
            if not transcripts[i] or not transcripts[i][-1][2]:
                transcripts[i].append((next_obs[i], float(reward[i]), bool(done[i])))
        if done.all():
            break
    assert transcripts[0] == transcripts[1] == transcripts[2], group_id
    assert transcripts[0][-1][2]


def test_oat_eval_loop_with_partial_steps(gem):
    """oat's ``run_eval_episode``: look for a ``dataset`` through the wrapper chain, reset with
    ``env{j}_kwargs``, then step only the slots still running with a dict of actions."""

    def get_attr_from_wrapper(env, attr):
        if hasattr(env, attr):
            return getattr(env, attr)
        if hasattr(env, "env"):
            return get_attr_from_wrapper(env.env, attr)
        raise ValueError(f"Cannot find {attr} in env.")

    batch_size = 4
    vec_env = gem.make_vec([GUESS] * batch_size, async_mode=False)
    try:
        dataset = get_attr_from_wrapper(vec_env.envs[0], "dataset")
    except ValueError:  # the unwrapping ends (no cycle) and the script uses a dummy dataset
        dataset = list(range(6))
    rng = random.Random(4)
    finished = 0
    for start in range(0, len(dataset), batch_size):
        n_parallel = min(batch_size, len(dataset) - start)  # 4, then 2 of the 4 slots
        kwargs_map = {f"env{j}_kwargs": {"seed": start + j} for j in range(n_parallel)}
        obs, info = vec_env.reset(**kwargs_map)
        obs, info = obs[:n_parallel], info[:n_parallel]
        done = np.array([False] * n_parallel)
        rounds = 0
        while not all(done):
            rounds += 1
            action = guess_policy(obs, rng)
            action_iter = iter(action)
            next_obs, reward, terminated, truncated, info = vec_env.step(
                {i: next(action_iter) for i, d in enumerate(done) if not d}
            )
            # One result per slot stepped, in slot order.
            assert len(next_obs) == len(reward) == len(info) == int((~done).sum())
            cur_done = terminated | truncated
            done[~done] = cur_done
            obs = [o for o, d in zip(next_obs, cur_done) if not d]
            assert rounds <= 20
        finished += n_parallel
    assert finished == len(dataset)


def test_oat_eval_loop_walks_the_dataset_with_idx(gem):
    """The same eval loop on a math eval set, as oat runs it: ``env{j}_kwargs={"idx": i + j}``
    poses row ``i + j`` in slot ``j``, so the batches cover the set once."""
    batch_size, rows = 2, 4  # the shipped MATH500 sample has 4 rows
    vec_env = gem.make_vec(["eval:MATH500"] * batch_size)
    seen = []
    for start in range(0, rows, batch_size):
        obs, _ = vec_env.reset(**{f"env{j}_kwargs": {"idx": start + j} for j in range(batch_size)})
        seen.extend(obs)
        _, reward, terminated, truncated, _ = vec_env.step(["\\boxed{x}"] * batch_size)
        assert (terminated | truncated).all() and not reward.any()
    assert len(set(seen)) == rows
    lone = gem.make("eval:MATH500")
    walked = [lone.reset()[0] for _ in range(rows)]
    assert seen == walked  # an eval set's first epoch is in dataset order
    # A lone env takes `idx` too, and unseeded resets go on after it.
    assert lone.reset(idx=1)[0] == walked[1] and lone.reset()[0] == walked[2]


def test_rl2_env_pool_and_async_vector(gem):
    """RL2's scripts: a pool of single envs with chat wrappers stepped from asyncio tasks, and
    an async vector env stepped with a dict of the buckets that have an action."""
    from gem.wrappers.wrapper_factory import get_wrapper_fns

    pool = []
    for i in range(4):
        env = gem.make(GUESS, seed=233 + i)
        for wrapper in get_wrapper_fns("concat_chat", tokenizer=ChatTokenizer()):
            env = wrapper(env)
        pool.append(env)

    async def episode(env_idx):
        rng = random.Random(env_idx)
        observation, _ = pool[env_idx].reset()
        total = 0.0
        for _ in range(30):
            next_obs, reward, terminated, truncated, _ = await asyncio.to_thread(
                pool[env_idx].step, f"\\boxed{{{rng.randint(1, 20)}}}"
            )
            total += reward
            if terminated or truncated:
                return total
        raise AssertionError("the episode did not end")

    async def run_all():
        return await asyncio.gather(*(episode(i) for i in range(4)))

    assert len(asyncio.run(run_all())) == 4

    vec_env = gem.make_vec([GUESS] * 4, vec_kwargs=[{"seed": 233 + i} for i in range(4)], async_mode=True)
    observations, _ = vec_env.reset()
    step_actions = {0: "\\boxed{3}", 2: "\\boxed{9}"}
    obs, rewards, terminateds, truncateds, infos = vec_env.step(step_actions)
    assert len(obs) == len(rewards) == 2
    obs, *_ = vec_env.step(["\\boxed{1}"] * 4)
    assert len(obs) == 4


def test_openrlhf_agent(gem):
    """OpenRLHF's agent function: a time-based seed, ``env.max_turns``, positional reset seeds."""
    env = gem.make("game:GuessTheNumber-v0-hard", seed=time.time_ns())
    max_steps = env.max_turns
    assert isinstance(max_steps, int) and max_steps > 0
    observation, info = env.reset(random.randint(1, 10_000_000))
    assert "guess" in observation.lower()
    for step in range(max_steps):
        observation, reward, terminated, truncated, info = env.step(f"\\boxed{{{step + 1}}}")
        if terminated or truncated:
            break
    assert terminated or truncated


def test_tinker_pool_spawn_and_dataset(gem):
    """Tinker's scripts: envs made with time-based seeds and ``use_mp=False``, the first env's
    ``dataset`` handed to the others, ``env.seed``, ``spawn(seed=...)`` and
    ``spawn(same_state=True)`` for a group that starts from one state."""
    env_id = "qa:HotpotQA"
    envs = [gem.make(env_id, seed=int(time.time_ns()), use_mp=False)]
    for i in range(1, 3):
        dataset = envs[0].dataset if hasattr(envs[0], "dataset") else None
        envs.append(gem.make(env_id, seed=int(time.time_ns()) * i, dataset=dataset, use_mp=False))
    assert all(env.reset()[0] for env in envs)

    parent = gem.make("math:GSM8K", seed=int(time.time_ns()), use_mp=False)
    seed_parent = parent.seed
    assert seed_parent is not None
    pool = [parent.spawn(seed=i + seed_parent + 1) for i in range(3)]
    assert len({env.seed for env in pool}) == len(pool)
    init_obs, _ = parent.reset()
    group = [parent.spawn(same_state=True) for _ in range(3)]
    results = [env.step("\\boxed{42}") for env in group]
    assert all(r[:4] == results[0][:4] for r in results)
    assert parent.step("\\boxed{42}")[:4] == results[0][:4]
