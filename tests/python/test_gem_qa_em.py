"""``geode.utils.qa_em`` against GEM's own ``gem.utils.qa_em``, case for case: the results GEM
gave (tests/data/gem_utils/qa_em.json, recorded by tests/data/gem_utils/record.py) replayed
without GEM."""

import importlib.util
import json

import pytest

from conftest import ROOT

GOLDEN = ROOT / "tests/data/gem_utils"


def _recorder():
    """tests/data/gem_utils/record.py, whose ``evaluate`` the recording used."""
    spec = importlib.util.spec_from_file_location("gem_utils_record", GOLDEN / "record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORDER = _recorder()
CASES = json.loads((GOLDEN / "qa_em.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["call"][:60] for c in CASES])
def test_qa_em_equals_gem(case):
    from geode.utils import qa_em

    got = RECORDER.evaluate(case["call"], vars(qa_em))
    assert {"call": case["call"], **got} == case


def test_the_recording_covers_every_public_function():
    from geode.utils import qa_em

    called = {case["call"].split("(", 1)[0] for case in CASES}
    assert called == set(qa_em.__all__) == {"em_check", "normalize_answer"}
