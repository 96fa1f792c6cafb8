"""Exact-match scoring of short answers, with GEM's rules (``gem.utils.qa_em``): the answer
and each reference are normalized (lower case, ASCII punctuation removed, the articles "a",
"an" and "the" removed, runs of whitespace made one space) and compared for equality.

    from geode.utils.qa_em import em_check   # or gem.utils.qa_em
    em_check("The Eiffel Tower!", ["eiffel tower", "Paris"])   # True

The ``qa:*`` envs score with the same rules inside their plugin; this module is for reward
functions written in Python.
"""

import re
import string
from typing import Iterable, Union

__all__ = ["em_check", "normalize_answer"]

_DROP_PUNCTUATION = str.maketrans("", "", string.punctuation)
_ARTICLE = re.compile(r"\b(?:a|an|the)\b")


def normalize_answer(s: str) -> str:
    """``s`` lower-cased, without ASCII punctuation, with every article ("a", "an", "the" as
    whole words) replaced by a space, and with its words joined by single spaces."""
    text = s.lower().translate(_DROP_PUNCTUATION)
    return " ".join(_ARTICLE.sub(" ", text).split())


def em_check(prediction: str, golden_answers: Union[str, Iterable[str]]) -> bool:
    """True when ``prediction`` equals one of ``golden_answers`` (one string or several) after
    :func:`normalize_answer`."""
    if isinstance(golden_answers, str):
        golden_answers = [golden_answers]
    predicted = normalize_answer(prediction)
    return any(normalize_answer(answer) == predicted for answer in golden_answers)
