"""geode's math grader component: GEM's `boxed_reward_fn` rules (package `geode_math`) on
CPython compiled to a WebAssembly component by componentize-py.

componentize-py snapshots the interpreter once this module is loaded, and only modules loaded
by then exist at run time. So the build imports the standard library, every module of the
grading libraries (sympy, mpmath, math-verify, latex2sympy2_extended, antlr4, pylatexenc) but
their test suites, and grades a set of warm-up answers that reach the modules those libraries
import lazily. The host runs each call in a fresh instance of that snapshot, so every call
starts from the same state (caches, random generators) and a verdict never depends on history.
"""

import gc
import sys
import types

import geode_preload
import wit_world

# Parts of the standard library and of the grading libraries nothing here needs.
SKIPPED = geode_preload.STDLIB_SKIPPED | {"benchmarks", "autolev", "testing", "conftest"}
GRADING_LIBRARIES = (
    "mpmath", "sympy", "antlr4", "latex2sympy2_extended", "pylatexenc", "math_verify",
)


def _ctypes_stand_in():
    """WASI has no `_ctypes`, so no `ctypes`; sympy imports it only to size a C `long` (for
    its gmpy backend, unused here). A stand-in with that one answer, as on 64-bit Linux where
    the golden verdicts were recorded."""
    module = types.ModuleType("ctypes")
    module.__doc__ = "geode stand-in: only c_long and sizeof (WASI has no _ctypes)"

    class c_long:  # noqa: N801 - the name sympy imports
        """Stand-in for ctypes.c_long (8 bytes)."""

    module.c_long = c_long
    module.sizeof = lambda kind: 8 if kind is c_long else 0
    return module


geode_preload.load_standard_library(SKIPPED)
if "ctypes" not in sys.modules:
    sys.modules["ctypes"] = _ctypes_stand_in()
for _name in GRADING_LIBRARIES:
    geode_preload.load_tree(_name, SKIPPED)

import geode_math  # noqa: E402 - loaded after the libraries it uses
from warm_up import WARM_UP  # noqa: E402

for _response, _truth in WARM_UP:
    geode_math.boxed_reward(_response, [_truth], fast=False)

# Objects alive now belong to the snapshot: keep the collector from walking them in every call
# (which would touch, and so copy, every page of the image).
gc.collect()
gc.freeze()


def _verdict(formatted, correct, answer=None, error=None):
    return wit_world.Verdict(formatted=formatted, correct=correct, answer=answer, error=error)


def _judge(check, text, truths):
    Check = wit_world.Check
    if check in (Check.BOXED_REWARD, Check.BOXED_REWARD_FAST):
        formatted, correct, answer = geode_math.boxed_reward(
            text, truths, fast=check == Check.BOXED_REWARD_FAST
        )
        return _verdict(formatted, correct, answer)
    if check == Check.EXTRACT:
        answer = geode_math.extract_answer(text)
        return _verdict(answer is not None, False, answer)
    if check == Check.GRADE:
        return _verdict(True, any(geode_math.grade(text, t, fast=False) for t in truths))
    if check == Check.GRADE_FAST:
        return _verdict(True, any(geode_math.grade(text, t, fast=True) for t in truths))
    if check == Check.LATEX_EQUAL:
        return _verdict(True, any(geode_math.latex_equal(text, t) for t in truths))
    if check == Check.MATHD:
        return _verdict(True, any(geode_math.grade_mathd(text, t) for t in truths))
    return _verdict(True, any(geode_math.grade_sympy(text, t) for t in truths))


class WitWorld(wit_world.WitWorld):
    def judge(self, check, text, ground_truths):
        try:
            return _judge(check, text, ground_truths)
        except RecursionError:
            return _verdict(False, False, None, "RecursionError")
        except BaseException as error:  # noqa: BLE001 - reported, never raised into the host
            return _verdict(False, False, None, f"{type(error).__name__}: {error}"[:500])
