"""geode.trl against TRL's own code that runs without torch: TRL's Qwen3 chat template renders the
environment's `step` tool, TRL's response parser reads the model's call to it, and calling it as
GRPOTrainer's tool loop does steps the geode env exactly as geode's direct API does; get_reward
is the episode's reward. (GRPOTrainer itself needs torch: examples/trl_grpo.py runs it.)"""

import importlib.util
import inspect
import json
import pickle
from pathlib import Path

import pytest
from trl.chat_template_utils import add_response_schema, parse_response, supports_tool_calling

import geode as gem
from geode.trl import EPISODE_OVER, environment_factory, prompts

EXAMPLE = Path(__file__).resolve().parents[3] / "examples/trl_grpo.py"
GUESS = "game:GuessTheNumber-v0-easy"
#: (id, make keywords, seed, actions): a game, a math id, a game with tool:python.
EPISODES = [
    (GUESS, {}, 3, ["\\boxed{5}", "\\boxed{2}", "\\boxed{8}", "\\boxed{1}", "\\boxed{9}"]),
    ("math:GSM8K", {}, 5, ["\\boxed{8}"]),
    (GUESS, {"wrappers": ["python_tool"]}, 3, ["<python>print(2 + 3)</python>", "\\boxed{5}", "\\boxed{2}",
                                               "\\boxed{3}", "\\boxed{4}", "\\boxed{6}"]),
]


@pytest.fixture(scope="module")
def tokenizer():
    """The example's tokenizer (TRL's Qwen3 template), with TRL's response parser added."""
    spec = importlib.util.spec_from_file_location("trl_grpo", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return add_response_schema(example.tiny_tokenizer())


def tool_calls(tokenizer, env, action: str) -> list:
    """The tool calls TRL's parser reads, as GRPOTrainer calls it, from a model turn that calls
    `step` with ``action`` in Qwen3's format after the rendered prompt."""
    prompt = tokenizer.apply_chat_template(prompts(1)[0]["prompt"], tools=[env.step], tokenize=False,
                                           add_generation_prompt=True)
    turn = f'<tool_call>\n{json.dumps({"name": "step", "arguments": {"action": action}})}\n</tool_call><|im_end|>'
    ids = [tokenizer(text, add_special_tokens=False)["input_ids"] for text in (prompt, turn)]
    return parse_response(tokenizer, ids[1], prefix=ids[0], tools=[env.step])["tool_calls"]


def test_trl_sees_one_tool_and_renders_it(tokenizer):
    env = environment_factory(GUESS)()
    public = {name for name, _ in inspect.getmembers(type(env), inspect.isfunction) if not name.startswith("_")}
    assert public == {"reset", "step", "get_reward"}
    assert supports_tool_calling(tokenizer)
    prompt = tokenizer.apply_chat_template(prompts(1)[0]["prompt"], tools=[env.step], tokenize=False,
                                           add_generation_prompt=True)
    assert '"name": "step"' in prompt and '"action"' in prompt and "<python></python>" in prompt


@pytest.mark.parametrize("env_id, kwargs, seed, actions", EPISODES)
def test_rollout_through_trls_parser_matches_geode(tokenizer, env_id, kwargs, seed, actions):
    direct = gem.make(env_id, **kwargs)
    first, _ = direct.reset(seed=seed)
    env = pickle.loads(pickle.dumps(environment_factory(env_id, **kwargs)))()
    row = prompts(1, first_seed=seed)[0]
    assert env.reset(**row) == first
    rewards = []
    for action in actions:
        calls = tool_calls(tokenizer, env, action)
        assert [call["function"]["name"] for call in calls] == ["step"]
        observation = env.step(**calls[0]["function"]["arguments"])
        obs, reward, terminated, truncated, _ = direct.step(action)
        rewards.append(reward)
        done = terminated or truncated
        assert observation == obs + (EPISODE_OVER if done else "")
        if done:
            with pytest.raises(ValueError, match="episode is over"):
                env.step(action)
            break
    assert env.get_reward() == pytest.approx(sum(rewards))
    assert env.reset(**row) == first and env.get_reward() == 0.0


def test_the_episodes_score_something():
    totals = []
    for env_id, kwargs, seed, actions in EPISODES:
        env = environment_factory(env_id, **kwargs)()
        env.reset(seed=seed)
        for action in actions:
            if EPISODE_OVER in env.step(action):
                break
        totals.append(env.get_reward())
    assert any(total > 0 for total in totals)
