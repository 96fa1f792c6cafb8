"""Records GEM's verdicts on geode's ``math:Geometry3K`` sample into ``golden.json``.

Run with the Python that has GEM (``pip install gem-llm pylatexenc datasets pillow``), from the
repository root:

    python tests/python/geometry3k/record_golden.py

GEM's ``MathVisualEnv`` is built over the shipped rows (images decoded to PIL images, as
``datasets`` gives them), reset to each row in turn (``idx``), and stepped with each reply of
``REPLIES`` (the row's answer put in several forms, and wrong or unboxed ones). ``test_geometry3k``
replays the same resets and replies through geode without GEM.
"""

import base64
import io
import json
from pathlib import Path

from datasets import Dataset
from PIL import Image

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "host/python/python/geode/envs/data/geometry3k.jsonl"

#: Replies per row: ``{answer}`` is the row's answer.
REPLIES = [
    "The answer is \\boxed{{{answer}}}.",
    "x = \\boxed{{{answer}}}",
    "First \\boxed{{1}}, then on reflection \\boxed{{{answer}}}",
    "\\boxed{{{answer}}} is wrong; it is \\boxed{{7}}",
    "The answer is {answer}.",
    "\\boxed{{-{answer}}}",
    "\\boxed{{}}",
]
#: Replies for one row each: other forms of the same value.
EXTRA = {
    0: ["\\boxed{10.0}", "\\boxed{\\sqrt{100}}", "\\boxed{x = 10}", "\\boxed{10 \\text{ units}}"],
    2: ["\\boxed{10 \\pi}", "\\boxed{31.4159}", "\\boxed{\\pi \\cdot 10}", "\\boxed{10}"],
    3: ["\\boxed{70^\\circ}", "\\boxed{70°}", "\\boxed{\\frac{140}{2}}"],
    5: ["\\boxed{\\sqrt{32}}", "\\boxed{4 \\sqrt 2}", "\\boxed{5.657}", "\\boxed{2\\sqrt{8}}"],
}


def main() -> None:
    from gem.envs.math_visual_env import MathVisualEnv

    rows = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()]
    decoded = [
        {**row, "images": [Image.open(io.BytesIO(base64.b64decode(i["bytes"]))) for i in row["images"]]}
        for row in rows
    ]
    dataset = Dataset.from_list(decoded)
    cases = []
    for idx, row in enumerate(rows):
        replies = [r.format(answer=row["answer"]) for r in REPLIES] + EXTRA.get(idx, [])
        for reply in replies:
            # A fresh env per reply: GEM's MathVisualEnv.reset also runs MathEnv.reset, which
            # walks one more row and reshuffles the rows at the end of a pass, even with `idx`.
            env = MathVisualEnv(dataset=dataset, use_mp=False, eval=True)
            obs, _ = env.reset(idx=idx)
            assert obs["problem"] == row["problem"] and len(obs["images"]) == 1, (idx, obs["problem"], row["problem"])
            _, reward, terminated, truncated, info = env.step(reply)
            cases.append({"idx": idx, "reply": reply, "reward": reward, "terminated": terminated,
                          "truncated": truncated, "info": info})
    out = Path(__file__).with_name("golden.json")
    out.write_text(json.dumps(cases, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(cases)} verdicts -> {out}")


if __name__ == "__main__":
    main()
