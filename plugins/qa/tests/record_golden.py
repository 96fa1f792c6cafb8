"""Records GEM's grading of QA replies into golden.json, for the plugin's tests to replay.

Run with a Python that has GEM installed (`pip install gem-llm`; benches/gem_side_by_side.py
makes one in target/bench-venv):

    target/bench-venv/bin/python plugins/qa/tests/record_golden.py

Each case is a reply, the row's answer (text, number or list) and the extraction (tags or
boxed); GEM's verdict is what its QaEnv does: extract the answer (`extract_last_tagged_answer`
or `extract_last_boxed_answer`), then `QaEnv.check_correct`. A reply without an answer scores
0 (GEM's step means that, though it raises on it: `is_correct` is unset on that path).
"""

import json
import sys
import types
from pathlib import Path

sys.modules.setdefault("requests", types.ModuleType("requests"))
from gem.envs.qa_env import QaEnv  # noqa: E402
from gem.utils.parsing import extract_last_boxed_answer, extract_last_tagged_answer  # noqa: E402

TAGGED = [
    ("<answer>Paris</answer>", ["Paris"]),
    ("<answer> paris. </answer>", ["Paris"]),
    ("<answer>The Paris</answer>", ["Paris"]),
    ("<answer>a  Paris</answer>", "Paris"),
    ("<answer>Paris, France</answer>", ["Paris"]),
    ("<answer>London</answer><answer>Paris</answer>", ["Paris"]),
    ("<answer>Paris</answer><answer>London</answer>", ["Paris"]),
    ("<answer>Paris</answer> <answer>London", ["Paris"]),
    ("<answer><answer>Paris</answer>", ["Paris"]),
    ("<answer>\nParis\n</answer>", ["Paris"]),
    ("Paris", ["Paris"]),
    ("\\boxed{Paris}", ["Paris"]),
    ("<answer></answer>", ["the"]),
    ("<answer>The Beatles</answer>", ["Beatles", "The Beatles"]),
    ("<answer>beatles</answer>", ["The Beatles"]),
    ("<answer>theatles</answer>", ["The Beatles"]),
    ("<answer>Anne of Green Gables</answer>", ["Anne of Green Gables"]),
    ("<answer>Green Gables, Anne of</answer>", ["Anne of Green Gables"]),
    ("<answer>42</answer>", [42, "forty-two"]),
    ("<answer>forty two</answer>", [42, "forty-two"]),
    ("<answer>fortytwo</answer>", [42, "forty-two"]),
    ("<answer>42.0</answer>", 42),
    ("<answer>1.5</answer>", [1.5]),
    ("<answer>True</answer>", [True]),
    ("<answer>U.S.A.</answer>", ["USA"]),
    ("<answer>u s a</answer>", ["USA"]),
    ("<answer>Straße</answer>", ["STRASSE", "straße"]),
    ("<answer>ÉCOLE</answer>", ["école"]),
    ("<answer>Ὀδυσσεύς</answer>", ["ὀδυσσεύς"]),
    ("<answer>ΟΔΥΣΣΕΥΣ</answer>", ["οδυσσευς"]),
    ("<answer>São Paulo</answer>", ["Sao Paulo"]),
    ("<answer>1,000</answer>", ["1000"]),
    ("<answer>1 000</answer>", ["1000"]),
    ("<answer>the_end</answer>", ["theend"]),
    ("<answer>an an a the</answer>", [""]),
    ("<answer>A-ha</answer>", ["aha"]),
    ("<answer>résumé\u2003writing</answer>", ["Résumé writing"]),
    ("<answer>tab\there</answer>", ["tab here"]),
    ("<answer>x\u001fy</answer>", ["x y"]),
    ("<answer>『Tokyo』</answer>", ["Tokyo"]),
    ("<answer>“Tokyo”</answer>", ["Tokyo"]),
    ("<answer>Tokyo</answer>", ["“Tokyo”"]),
    ("<ANSWER>Paris</ANSWER>", ["Paris"]),
    ("<answer>Paris</Answer>", ["Paris"]),
]

BOXED = [
    ("\\boxed{True}", "True"),
    ("so \\boxed{ true. }", "True"),
    ("\\boxed{False}", "True"),
    ("\\boxed{True} \\boxed{False}", "False"),
    ("\\boxed{True} then \\boxed{False", "True"),
    ("\\boxed True", "True"),
    ("\\fbox{True}", "True"),
    ("\\boxed{\\text{True}}", "True"),
    ("\\boxed{{True}}", "True"),
    ("<answer>True</answer>", "True"),
    ("\\boxed{The answer is True}", "True"),
    ("\\boxed{a True}", "True"),
    ("\\boxed{}", "True"),
    ("\\boxed{True}}", "True"),
    ("\\boxed}{True}", "True"),
]


def verdict(reply, answer, boxed):
    extracted = (extract_last_boxed_answer if boxed else extract_last_tagged_answer)(reply)
    if extracted is None:
        return {"extracted": None, "correct": False}
    return {"extracted": extracted, "correct": bool(QaEnv.check_correct(extracted, answer))}


def main():
    cases = [(r, a, False) for r, a in TAGGED] + [(r, a, True) for r, a in BOXED]
    golden = [
        {"reply": r, "answer": a, "extract_boxed": b, **verdict(r, a, b)} for r, a, b in cases
    ]
    out = Path(__file__).with_name("golden.json")
    out.write_text(json.dumps(golden, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(golden)} cases, {sum(c['correct'] for c in golden)} correct -> {out}")


if __name__ == "__main__":
    main()
