"""QA and logic envs from Python (``qa:*``, ``logic:RuleTaker-*``, the QA ``eval:*`` ids): GEM's
prompt and grading on the shipped samples, vector stepping, and a dataset file of the user's."""

import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "plugins" / "qa" / "data"
QA_IDS = ["qa:NaturalQuestions", "qa:HotpotQA", "eval:QaOpen", "eval:2Wiki", "eval:PopQA", "eval:TriviaQA",
          "eval:HotpotQA", "eval:Bamboogle", "eval:NaturalQuestions", "eval:Musique"]
LOGIC_IDS = [f"logic:RuleTaker-d{d}" for d in (0, 1, 2, 3, 5)]


def answers_by_question(*files):
    """question -> first accepted answer, over the rows of the named sample files."""
    table = {}
    for name in files:
        for line in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            answer = row["answer"][0] if isinstance(row["answer"], list) else row["answer"]
            table[row.get("problem", row.get("question"))] = answer
    return table


def asked(observation):
    return observation.split("\nQuestion: ", 1)[1][:-1]


def test_every_gem_qa_and_logic_id_is_registered(gem):
    for env_id in QA_IDS + LOGIC_IDS:
        assert env_id in gem.ENV_REGISTRY, env_id
    assert gem.ENV_REGISTRY["logic:RuleTaker-d3"].kwargs["extract_boxed"] is True
    assert gem.ENV_REGISTRY["qa:HotpotQA"].kwargs["question_key"] == "problem"


def test_make_grades_with_gems_prompt_and_exact_match(gem):
    table = answers_by_question("hotpotqa")
    env = gem.make("qa:HotpotQA")
    obs, info = env.reset(seed=3)
    assert obs.startswith("For any question, always reason") and info == {}
    answer = table[asked(obs)]
    obs, reward, terminated, truncated, info = env.step(f"<think>hmm</think><answer> the {answer.upper()}. </answer>")
    assert (obs, reward, terminated, truncated, info) == ("<｜TERMINAL_STATE｜>", 1.0, True, True, {"correct": True})
    env.reset(seed=3)
    assert env.step("<answer>not it</answer>")[1:] == (0.0, True, True, {"correct": False})
    assert env.sample_random_action() == "<answer>Hello World!</answer>"


def test_make_vec_over_mixed_ids_with_autoreset(gem):
    ids = ["logic:RuleTaker-d2", "eval:TriviaQA", "qa:NaturalQuestions", "logic:RuleTaker-d5"]
    table = answers_by_question("ruletaker_d2", "ruletaker_d5", "search_eval_tq", "natural_questions")
    vec = gem.make_vec(ids, seed=11)
    observations, _ = vec.reset()
    for _ in range(3):
        actions = []
        for env_id, obs in zip(ids, observations):
            answer = table[asked(obs)]
            actions.append(f"\\boxed{{{answer}}}" if env_id.startswith("logic:") else f"<answer>{answer}</answer>")
        observations, rewards, terminated, truncated, infos = vec.step(actions)
        assert list(rewards) == [1.0] * 4 and all(terminated) and all(truncated)
        assert all(info["correct"] for info in vec.final_infos)
        # SAME_STEP autoreset: the next question is already there.
        assert all(o.startswith("For any question") for o in observations)


def test_a_dataset_file_in_a_data_directory(gem, tmp_path):
    rows = [{"q": "Chemical symbol of gold?", "gold": ["Au"]}, {"q": "How many legs has a spider?", "gold": 8}]
    (tmp_path / "mine.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    gem.add_data_dir(tmp_path)
    env = gem.make("qa:NaturalQuestions", dataset="mine.jsonl", question_key="q", answer_key="gold")
    answers = {"Chemical symbol of gold?": "au", "How many legs has a spider?": "8"}
    for _ in range(4):
        obs, _ = env.reset()
        assert env.step(f"<answer>{answers[asked(obs)]}</answer>")[1] == 1.0
    with pytest.raises(gem.BadConfigError, match="dataset"):
        gem.make("qa:HotpotQA", dataset="absent.jsonl")
    with pytest.raises(gem.BadConfigError, match="axon-rl/HotpotQA"):  # offline: the hub is unreachable
        gem.make("qa:HotpotQA", dataset_name="axon-rl/HotpotQA")


def test_vector_slots_walk_different_orders(gem):
    """GEM's make_vec gives env i the seed ``seed + i`` as its own: dataset envs' slots must not
    all walk the dataset in the same order (they did while the seed only seeded the first reset)."""
    for kwargs in ({}, {"async_mode": True}, {"wrappers": ["episode_tracking"]}):
        vec = gem.make_vec(["qa:HotpotQA"] * 4, seed=0, **kwargs)
        vec.reset()
        rounds = []
        for _ in range(3):
            observations = vec.step(["<answer>x</answer>"] * 4)[0]
            rounds.append(len({asked(o) for o in observations}))
        assert max(rounds) > 1, (kwargs, rounds)
    a = gem.make("qa:HotpotQA", seed=1)
    b = gem.make("qa:HotpotQA", seed=2)
    walk = lambda env: [asked(env.reset()[0]) for _ in range(6)]  # noqa: E731
    assert walk(a) != walk(b)
