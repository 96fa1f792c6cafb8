"""The math-verify stage of grading (GEM's `is_latex_equal`, used when `fast` is off): skips
long repetitive answers, compares normalized strings, then lets math-verify parse both sides as
LaTeX or plain expressions and compare them. GEM bounds it with SIGALRM; here the host's fuel
budget does, so math-verify's own timeouts are off."""

import logging

from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

from .repeats import is_repetitive
from .sympy_stage import normalize_sympy

# math-verify warns (once per process) that its timeouts are off: that is deliberate here.
logging.getLogger("math_verify").setLevel(logging.ERROR)

_LONG = 128


def _parsed(text):
    return parse(
        text,
        extraction_config=(
            LatexExtractionConfig(boxed_match_priority=0),
            ExprExtractionConfig(),
        ),
        fallback_mode="no_fallback",
        extraction_mode=["first_match"],
        parsing_timeout=None,
    )


def latex_equal(given, truth):
    """GEM's `is_latex_equal(given, truth)`; any failure is False."""
    try:
        if (len(given) > _LONG and is_repetitive(given)) or (
            len(truth) > _LONG and is_repetitive(truth)
        ):
            return False
        normalized_truth = normalize_sympy(truth)
        if normalized_truth is None:
            return False
        if normalized_truth == normalize_sympy(given):
            return True
        if "$" not in given:
            given = f"${given}$"
        if "$" not in truth:
            truth = f"${truth}$"
        return bool(verify(_parsed(truth), _parsed(given), timeout_seconds=None))
    except Exception:  # noqa: BLE001 - GEM counts any failure as not equal
        return False
