"""Single envs: GEM's Env API, seeding, state, spawn, close, wrappers, limits."""

import pytest

HARD = "game:GuessTheNumber-v0-hard"


def play(env, actions):
    return [env.step(a)[:4] for a in actions]


def test_reset_step_types(gem):
    env = gem.make(HARD)
    assert isinstance(env, gem.Env) and env.env_id == HARD
    obs, info = env.reset(seed=5)
    assert "Guess The Number" in obs and info == {"suffix": "Enter your next guess."}
    obs, reward, terminated, truncated, info = env.step("\\boxed{25}")
    assert isinstance(obs, str) and isinstance(reward, float)
    assert terminated is False and truncated is False and isinstance(info, dict)


def test_seeds_replay_and_make_seed(gem):
    actions = ["\\boxed{%d}" % g for g in (25, 12, 37, 6)]
    a, b = gem.make(HARD), gem.make(HARD)
    a.reset(seed=11)
    b.reset(seed=11)
    assert play(a, actions) == play(b, actions)
    c = gem.make(HARD, seed=11)  # the first unseeded reset uses make's seed
    c.reset()
    a.reset(seed=11)
    assert play(c, actions) == play(a, actions)


def test_state_and_spawn(gem):
    env = gem.make(HARD)
    env.reset(seed=3)
    env.step("\\boxed{10}")
    state = env.get_state()
    assert isinstance(state, bytes)
    twin = env.spawn(same_state=True)
    assert play(twin, ["\\boxed{20}"]) == play(env, ["\\boxed{20}"])
    fresh = gem.make(HARD)
    fresh.reset(seed=99)
    fresh.set_state(state)
    env.set_state(state)
    assert play(fresh, ["\\boxed{30}"]) == play(env, ["\\boxed{30}"])
    other = env.spawn(max_turns=1)  # spawn(**kwargs) overrides the config
    other.reset(seed=1)
    _, _, terminated, truncated, _ = other.step("\\boxed{1}")
    assert terminated or truncated


def test_close(gem):
    env = gem.make(HARD)
    env.reset()
    env.close()
    with pytest.raises(gem.InvalidStateError, match="closed"):
        env.step("\\boxed{1}")
    with gem.make(HARD) as scoped:
        scoped.reset()


def test_native_and_python_wrappers(gem, tokenizer):
    factory = gem.wrappers.WRAPPER_FACTORY
    env = gem.make(HARD)
    wrapped = factory["episode_tracking"](factory["concat"](env))
    assert wrapped.wrapper == "episode_tracking" and wrapped.env.wrapper == "concat"
    assert wrapped.unwrapped.env_id == HARD and wrapped.unwrapped.wrapper is None
    obs, info = wrapped.reset(seed=1)
    assert info["step_counter"] == 0
    obs, _, _, _, info = wrapped.step("\\boxed{7}")
    assert obs.count("guessed 7") == 1 and "Guess The Number" in obs and info["step_counter"] == 1

    # GEM's ObservationWrapper in Python gives the same text as the native concat layer.
    python = gem.wrappers.ObservationWrapper(gem.make(HARD), include_action=False, include_chat_template=False)
    native = factory["concat"](gem.make(HARD))
    for e in (python, native):
        e.reset(seed=4)
    assert play(python, ["\\boxed{9}", "\\boxed{40}"]) == play(native, ["\\boxed{9}", "\\boxed{40}"])

    chat = factory["concat_chat"](gem.make(HARD), tokenizer=tokenizer)
    obs, _ = chat.reset(seed=1)
    obs, *_ = chat.step("\\boxed{8}")
    assert obs.startswith("<|user|>") and "<|assistant|>\\boxed{8}<|end|><|user|>At turn 1" in obs

    via_make = gem.make(HARD, wrappers=["concat_with_action"])
    via_make.reset(seed=1)
    assert "\\boxed{3}\n" in via_make.step("\\boxed{3}")[0]


def test_register_python_env(gem):
    class Counter(gem.Env):
        def __init__(self, limit=2, **_):
            self.limit, self.n = limit, 0

        def reset(self, seed=None):
            self.n = 0
            return "start", {}

        def step(self, action):
            self.n += 1
            return f"step {self.n}", 1.0, self.n >= self.limit, False, {}

    gem.register("test:Counter-v0", Counter, limit=3)
    env = gem.make("test:Counter-v0")
    env.reset()
    assert [env.step("x")[2] for _ in range(3)] == [False, False, True]
    vec = gem.make_vec(["test:Counter-v0", "test:Counter-v0"], wrappers=["episode_tracking"])
    vec.reset()
    _, rewards, _, _, infos = vec.step(["a", "b"])
    assert list(rewards) == [1.0, 1.0] and infos[0]["step_counter"] == 1
