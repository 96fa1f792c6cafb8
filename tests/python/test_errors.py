"""Errors become typed Python exceptions with the runtime's messages."""

import pytest

HARD = "game:GuessTheNumber-v0-hard"


def test_unknown_id(gem):
    with pytest.raises(gem.UnknownEnvError, match="did you mean `game:GuessTheNumber-v0-hard`") as err:
        gem.make("game:GuessTheNumber-v0-hrd")
    assert isinstance(err.value, ValueError) and isinstance(err.value, gem.GeodeError)
    assert err.value.env_id == "game:GuessTheNumber-v0-hrd"
    assert err.value.suggestions == ["game:GuessTheNumber-v0-hard"]
    with pytest.raises(ValueError):  # what GEM raises, so GEM-era except clauses still work
        gem.make_vec(["game:Nope-v0"] * 2)


def test_bad_kwargs(gem):
    with pytest.raises(gem.BadConfigError, match="max_turn") as err:
        gem.make(HARD, max_turn=3)
    assert err.value.key == "max_turn" and "known keys are" in str(err.value)
    assert isinstance(err.value, ValueError) and isinstance(err.value, TypeError)
    with pytest.raises(gem.BadConfigError, match="expected an integer, got a string"):
        gem.make(HARD, max_turns="9")
    with pytest.raises(gem.BadConfigError, match="cannot pass a `object`"):
        gem.make(HARD, max_turns=object())
    with pytest.raises(gem.BadConfigError, match="limits.fuel"):
        gem.make(HARD, limits={"fuel": 10})
    with pytest.raises(gem.BadConfigError, match="max_turn"):
        gem.make_vec([HARD] * 2, max_turn=3)
    with pytest.raises(gem.BadConfigError, match="autoreset_mode"):
        gem.make_vec([HARD] * 2, autoreset_mode="sometimes")
    with pytest.raises(gem.InvalidArgumentError, match="unknown wrapper `concatenate`"):
        gem.make_vec([HARD] * 2, wrappers=["concatenate"])


def test_misuse(gem):
    env = gem.make(HARD)
    with pytest.raises(gem.InvalidStateError, match="before reset"):
        env.step("\\boxed{1}")
    env.reset()
    with pytest.raises(gem.InputTooLargeError):
        env.step("x" * (2 << 20))
    with pytest.raises(TypeError):
        env.step(42)


def test_out_of_fuel_with_a_builtin_env(gem):
    with pytest.raises(gem.OutOfFuelError, match="ran out of fuel") as err:
        gem.make(HARD, limits={"fuel_per_call": 1_000}).reset()
    assert isinstance(err.value, gem.LimitError) and isinstance(err.value, gem.EnvTrappedError)
    assert err.value.call in ("create", "reset") and err.value.env_id == HARD


@pytest.mark.parametrize(
    "env_id, error, limits",
    [
        ("hostile:panic", "GuestTrapError", {}),
        ("hostile:spin", "OutOfFuelError", {"fuel_per_call": 20_000_000}),
        ("hostile:spin", "DeadlineExceededError", {"fuel_per_call": None, "deadline_per_call": 0.05}),
        ("hostile:memory-bomb", "MemoryLimitError", {"max_memory_bytes": 8 << 20}),
        ("hostile:stack-overflow", "StackOverflowError", {}),
        ("hostile:bad-info", "ContractError", {}),
    ],
)
def test_trapped_envs(hostile, env_id, error, limits):
    gem = hostile
    env = gem.make(env_id, limits=limits)
    env.reset()
    with pytest.raises(getattr(gem, error)) as err:
        env.step("go")
    assert isinstance(err.value, gem.EnvTrappedError) and env_id in str(err.value)
    assert env.reset()[0] == f"{env_id} ready"  # the next reset builds a fresh instance


def test_panic_message_reaches_python(hostile):
    env = hostile.make("hostile:panic")
    env.reset()
    with pytest.raises(hostile.GuestTrapError, match="panicked on purpose"):
        env.step("x")


def test_trapped_slot_in_a_vector(hostile):
    gem = hostile
    vec = gem.make_vec(["hostile:healthy", "hostile:panic"])
    vec.reset()
    obs, rewards, terminations, truncations, infos = vec.step(["a", "b"])
    assert infos[1]["error_type"] == "GuestTrapError" and "panicked on purpose" in infos[1]["error"]
    assert truncations[1] and rewards[1] == 0.0 and obs[1] == "hostile:panic ready"  # restarted
    assert isinstance(vec.errors[1], gem.GuestTrapError) and vec.errors[0] is None
    assert rewards[0] == 1.0
    strict = gem.make_vec(["hostile:healthy", "hostile:panic"], on_error="raise", async_mode=True)
    strict.reset()
    with pytest.raises(gem.GuestTrapError):
        strict.step(["a", "b"])
