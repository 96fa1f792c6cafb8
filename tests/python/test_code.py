"""Code envs from Python: ``geode.make("code:CodeContest")`` grades answers on the shipped sample."""

SUM_OF_TWO_SEED = 109  # picks "Sum of two" from the shipped sample
CORRECT = "Here you go.\n```python\na, b = map(int, input().split())\nprint(a + b)\n```"


def test_code_envs_are_registered(gem):
    for env_id in ("code:CodeContest", "code:Taco8k", "code:PrimeIntellect15k", "eval:CodeContest"):
        assert env_id in gem.ENV_REGISTRY
    assert gem.ENV_REGISTRY["code:CodeContest"].kwargs["max_tests"] == 12


def test_make_grades_correct_wrong_and_missing_code(gem):
    env = gem.make("code:CodeContest", timeout=2)
    obs, info = env.reset(seed=SUM_OF_TWO_SEED)
    assert obs.startswith("Sum of two") and info["problem_index"] == 0
    obs, reward, terminated, truncated, info = env.step(CORRECT)
    assert reward == 1.0 and terminated and info["passed"] == info["total"] == 5
    env.reset(seed=SUM_OF_TWO_SEED)
    _, reward, _, _, info = env.step("```python\nprint(0)\n```")
    assert reward == 0.0 and info["tests"][0]["verdict"] == "wrong_answer"
    env.reset(seed=SUM_OF_TWO_SEED)
    _, reward, _, _, info = env.step("no code")
    assert reward == -0.1 and info["format_error"] is True


def test_make_vec_and_bad_config(gem):
    import pytest

    vec = gem.make_vec(["code:CodeContest"] * 2, seed=SUM_OF_TWO_SEED, vec_kwargs=[{"seed": SUM_OF_TWO_SEED}] * 2)
    observations, _ = vec.reset()
    assert all(o.startswith("Sum of two") for o in observations)
    _, rewards, _, _, _ = vec.step([CORRECT, "no code"])
    assert list(rewards) == [1.0, -0.1]
    with pytest.raises(gem.BadConfigError, match="max_test"):
        gem.make("code:CodeContest", max_test=3)


def test_numpy_answers_are_graded_like_any_other(gem):
    # numpy programs run in the sandbox's runner built with numpy; int64 holds 2 * 10**18.
    env = gem.make("code:CodeContest", timeout=10)
    env.reset(seed=SUM_OF_TWO_SEED)
    numpy_answer = "```python\nimport numpy as np\nprint(np.array(input().split(), dtype=np.int64).sum())\n```"
    _, reward, _, _, info = env.step(numpy_answer)
    assert reward == 1.0, info
    env.reset(seed=SUM_OF_TWO_SEED)
    _, reward, _, _, info = env.step("```python\nimport numpy as np\nprint(np.int32(input().split()[0]))\n```")
    assert reward == 0.0 and info["tests"][0]["verdict"] == "wrong_answer"
