"""`math:Geometry3K`: GEM's multimodal math env (observation `{"problem", "images"}`), run in the
host's Python on the shipped sample, graded by geode's sandboxed math grader. The verdicts are
GEM's own, recorded by `geometry3k/record_golden.py` from GEM's `MathVisualEnv` over the same
rows, and replayed here without GEM."""

import base64
import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from geode.utils.constants import TERMINAL_STATE

GOLDEN = json.loads((Path(__file__).parent / "geometry3k" / "golden.json").read_text())
ID = "math:Geometry3K"


def sample_rows(gem):
    from geode.envs.math_visual_env import SAMPLE

    return [json.loads(line) for line in SAMPLE.read_text().splitlines()]


def test_every_reply_gets_gems_verdict(gem):
    assert len(GOLDEN) >= 60 and {c["reward"] for c in GOLDEN} == {1.0, 0}
    env = gem.make(ID, eval=True)
    for case in GOLDEN:
        obs, info = env.reset(idx=case["idx"])
        assert info == {}
        observation, reward, terminated, truncated, info = env.step(case["reply"])
        assert (observation, terminated, truncated) == (TERMINAL_STATE, True, True)
        assert (reward, info) == (case["reward"], case["info"]), case
        assert type(reward) is type(case["reward"]) and type(info["correct"]) is int


def test_the_observation_is_the_problem_and_its_pictures(gem):
    rows = sample_rows(gem)
    env = gem.make(ID, eval=True)
    for row in rows:
        obs, _ = env.reset()
        assert set(obs) == {"problem", "images"} and obs["problem"] == row["problem"]
        (image,) = obs["images"]
        expected = Image.open(io.BytesIO(base64.b64decode(row["images"][0]["bytes"])))
        assert isinstance(image, Image.Image) and image.size == (240, 180)
        assert np.array_equal(np.asarray(image), np.asarray(expected))
    # Past the last row the walk starts again (reshuffled, in eval mode in the same order).
    assert env.reset()[0]["problem"] == rows[0]["problem"]


def test_walks_and_seeded_resets_are_deterministic(gem):
    problems = lambda env: [env.reset()[0]["problem"] for _ in range(8)]  # noqa: E731
    first, again = problems(gem.make(ID, seed=3)), problems(gem.make(ID, seed=3))
    assert first == again and sorted(first) == sorted(r["problem"] for r in sample_rows(gem))
    seeded = [gem.make(ID).reset(seed=11)[0]["problem"] for _ in range(3)]
    assert len(set(seeded)) == 1


def test_rows_come_from_any_dataset_form(gem, tmp_path):
    picture = Image.new("RGB", (8, 8), "red")
    raw = io.BytesIO()
    picture.save(raw, format="PNG")
    rows = [
        {"problem": "<image>pil", "answer": "1", "images": [picture]},
        {"problem": "<image>bytes", "answer": ["2", "two"], "images": [{"bytes": raw.getvalue(), "path": None}]},
        {"problem": "<image>base64", "answer": 3, "images": [{"bytes": base64.b64encode(raw.getvalue()).decode()}]},
    ]
    env = gem.make(ID, dataset=rows, eval=True)
    for row, reply in zip(rows, ["\\boxed{1}", "\\boxed{two}", "\\boxed{3}"]):
        obs, _ = env.reset()
        assert obs["problem"] == row["problem"] and obs["images"][0].getpixel((0, 0)) == (255, 0, 0)
        assert env.step(reply)[1] == 1.0
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"problem": "p", "answer": "5", "images": [base64.b64encode(raw.getvalue()).decode()]}) + "\n")
    env = gem.make(ID, dataset=str(path))
    env.reset()
    assert env.step("\\boxed{5}")[1] == 1.0


def test_bad_rows_and_misuse_name_the_problem(gem):
    with pytest.raises(gem.BadConfigError, match="row 0 has no 'images'"):
        gem.make(ID, dataset=[{"problem": "p", "answer": "1"}])
    env = gem.make(ID, dataset=[{"problem": "p", "answer": "1", "images": [42]}])
    with pytest.raises(gem.BadConfigError, match="an image must be"):
        env.reset()
    with pytest.raises(gem.InvalidStateError, match="before reset"):
        gem.make(ID).step("\\boxed{1}")
    with pytest.raises(gem.BadConfigError, match="cannot read dataset"):
        gem.make(ID, dataset="/nonexistent/rows.jsonl")


def test_without_pillow_making_it_names_the_extra(gem, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(gem.MissingExtraError, match=r"geode\[vision\]"):
        gem.make(ID)


def test_vector_envs_step_it_with_autoreset(gem):
    vec = gem.make_vec([ID] * 4, seed=5)
    obs, infos = vec.reset()
    assert all(set(o) == {"problem", "images"} for o in obs) and len(infos) == 4
    answers = {r["problem"]: r["answer"] for r in sample_rows(gem)}
    replies = ["\\boxed{%s}" % answers[o["problem"]] for o in obs]
    obs, rewards, terminated, truncated, infos = vec.step(replies)
    assert list(rewards) == [1.0] * 4 and all(terminated) and all(truncated)
    assert all(set(o) == {"problem", "images"} for o in obs)  # SameStep: the next questions
