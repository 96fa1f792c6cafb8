#!/usr/bin/env python3
"""How an LLM trainer's rollout function drives geode: prompts out, actions in, rewards back.

Two shapes, both with ``import geode as gem`` and GEM's chat-template wrapper:

- ``rollout_batched``: the classic synchronous loop (one ``generate`` call per turn for every
  live episode, ``vec.step`` with a partial ``{index: action}`` dict).
- ``rollout_async``: one coroutine per episode awaiting ``vec.step_async``, so episodes never
  wait for each other (what an async inference engine such as vLLM's wants).

The "model" here is a stand-in that answers with a guess; swap in your engine's generate call.

    target/py-venv/bin/python examples/python/trainer_adapter.py
"""

import asyncio
import random
import re
from dataclasses import dataclass, field
from typing import Callable, List

import geode as gem
from geode.wrappers import get_wrapper_fns

ENV_ID = "game:GuessTheNumber-v0-easy"


class Tokenizer:
    """Stand-in for a Hugging Face tokenizer: only ``apply_chat_template`` is needed."""

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=True):
        text = "".join(f"<|{m['role']}|>\n{m['content']}\n" for m in messages)
        return text + ("<|assistant|>\n" if add_generation_prompt else "")


def generate(prompts: List[str]) -> List[str]:
    """Stand-in for the policy: a guess between the last hints found in the prompt."""
    answers = []
    for prompt in prompts:
        low, high = 1, 10
        for guess, hint in re.findall(r"guessed (\d+), and the target number is (higher|lower)", prompt):
            low, high = (int(guess) + 1, high) if hint == "higher" else (low, int(guess) - 1)
        answers.append("I think it is \\boxed{%d}" % random.randint(low, max(low, high)))
    return answers


@dataclass
class Trajectory:
    """What the trainer learns from: per turn the prompt, the response and the reward."""

    prompts: List[str] = field(default_factory=list)
    responses: List[str] = field(default_factory=list)
    rewards: List[float] = field(default_factory=list)


def rollout_batched(vec, generate: Callable[[List[str]], List[str]]) -> List[Trajectory]:
    """One episode per slot, all slots stepped together; finished slots drop out."""
    prompts, _ = vec.reset()
    trajectories = [Trajectory() for _ in range(vec.num_envs)]
    live = list(range(vec.num_envs))
    while live:
        responses = generate([prompts[i] for i in live])
        obs, rewards, terminations, truncations, _ = vec.step(dict(zip(live, responses)))
        still = []
        for k, i in enumerate(live):
            t = trajectories[i]
            t.prompts.append(prompts[i])
            t.responses.append(responses[k])
            t.rewards.append(float(rewards[k]))
            prompts[i] = obs[k]
            if not (terminations[k] or truncations[k]):
                still.append(i)
        live = still
    return trajectories


async def rollout_async(vec, agenerate) -> List[Trajectory]:
    """One coroutine per episode; each awaits its own model call and its own env step."""
    prompts, _ = vec.reset()

    async def episode(i: int) -> Trajectory:
        t, prompt = Trajectory(), prompts[i]
        while True:
            response = await agenerate(prompt)
            obs, reward, terminated, truncated, _ = await vec.step_async(i, response)
            t.prompts.append(prompt)
            t.responses.append(response)
            t.rewards.append(reward)
            if terminated or truncated:
                return t
            prompt = obs

    return await asyncio.gather(*(episode(i) for i in range(vec.num_envs)))


async def agenerate(prompt: str) -> str:
    """Async stand-in for an inference engine call (requests take varying time)."""
    await asyncio.sleep(random.uniform(0, 0.002))
    return generate([prompt])[0]


def main() -> None:
    random.seed(0)
    wrappers = get_wrapper_fns("concat_chat", tokenizer=Tokenizer())
    vec = gem.make_vec([ENV_ID] * 8, wrappers=wrappers, seed=0)
    batch = rollout_batched(vec, generate)
    print("batched:", [round(sum(t.rewards), 2) for t in batch], "turns", [len(t.rewards) for t in batch])
    longest = max(batch, key=lambda t: len(t.rewards))
    print("last prompt of the longest episode:\n" + longest.prompts[-1])

    vec = gem.make_vec([ENV_ID] * 8, wrappers=wrappers, seed=0, async_mode=True)
    batch = asyncio.run(rollout_async(vec, agenerate))
    print("async:  ", [round(sum(t.rewards), 2) for t in batch], "turns", [len(t.rewards) for t in batch])


if __name__ == "__main__":
    main()
