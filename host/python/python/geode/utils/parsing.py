"""Pulling answers out of model responses, with GEM's rules (``gem.utils.parsing``)."""

import re
from typing import Optional

_FENCED_CODE = re.compile(r"```(?:\w+)?\n(.*?)```", re.DOTALL)
_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
_BOX_OPEN = "\\boxed{"


def last_boxed_only_string(text: str) -> Optional[str]:
    """The last ``\\boxed`` command of ``text`` (``\\fbox`` when there is none), from its name
    to the brace that closes its first group: ``\\boxed{...}``. None when that brace never
    comes."""
    start = text.rfind("\\boxed")
    if start < 0:
        start = text.rfind("\\fbox")
        if start < 0:
            return None
    depth = 0
    for end in range(start, len(text)):
        char = text[end]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start:end + 1]
    return None


def remove_boxed(boxed: Optional[str]) -> Optional[str]:
    """The content of ``\\boxed{content}``; None for anything else."""
    if isinstance(boxed, str) and boxed.startswith(_BOX_OPEN) and boxed.endswith("}"):
        return boxed[len(_BOX_OPEN):-1]
    return None


def extract_last_boxed_answer(solution: str) -> Optional[str]:
    """The content of the last ``\\boxed{...}`` of ``solution`` (nested braces kept), or None."""
    return remove_boxed(last_boxed_only_string(solution))


def extract_code_from_model(model_response: str) -> Optional[str]:
    """The last fenced code block of ``model_response`` (any language tag), stripped; None
    when there is none."""
    blocks = _FENCED_CODE.findall(model_response)
    return blocks[-1].strip() if blocks else None


def extract_last_tagged_answer(model_response: str) -> Optional[str]:
    """The last ``<answer>...</answer>`` of ``model_response``, stripped; None when there is
    none."""
    answers = _ANSWER_TAG.findall(model_response)
    return answers[-1].strip() if answers else None
