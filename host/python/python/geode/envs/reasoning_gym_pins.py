"""The conditions geode generates ReasoningGym questions under, so every machine poses the same ones.

ReasoningGym 0.1.23 run the way GEM runs it (in the trainer's own process) gives questions that
depend on the machine and the process, not only on ``(name, size, seed)``:

- **string hash seed**: ``isomorphic_strings``, ``knight_swap``, ``polynomial_multiplication``,
  ``ransom_note`` and ``word_ladder`` iterate over sets of strings, so GEM's questions change
  with ``PYTHONHASHSEED`` (random by default: every process of a GEM trainer has its own);
- **global generator state**: ``codeio`` runs snippets that draw from ``numpy.random`` and
  ``random`` without a seed, so GEM's question depends on whatever the process drew before;
- **BLAS and SIMD kernels**: ``codeio``'s numpy snippets multiply matrices, whose last bits
  depend on the OpenBLAS kernel picked for the CPU (AVX-512, AVX2, SSE3...) and numpy's own
  dispatched loops;
- **file-listing order**: ``figlet_font`` draws a font from ``pyfiglet``'s font directory in the
  order the file system lists it, which differs between file systems and installs.

geode pins each of them (``reasoning_gym_process.py`` runs ReasoningGym in a helper process
started with :func:`pinned_environ` that calls :func:`pin_library`): hash seed 0, each item
generated with the global generators seeded from the dataset's seed and the item's index
(``seed + idx``) and restored after, one BLAS thread on the architecture's baseline kernel,
numpy's baseline loops, the C.UTF-8 locale, UTC, ``/`` as working directory, fonts sorted by
name. The goldens (``tests/python/rg/record_golden.py``) record GEM under the same pins.

This module imports only the standard library: the recorder loads it by path into GEM's venv.
"""

import functools
import platform
import random
import sys

#: OpenBLAS's oldest kernel of each architecture: every CPU of it runs the same code.
BASELINE_BLAS_KERNEL = {"x86_64": "Prescott", "amd64": "Prescott", "aarch64": "ARMV8", "arm64": "ARMV8"}

#: The working directory ReasoningGym runs in.
PINNED_CWD = "/"


def numpy_baseline() -> str:
    """numpy's baseline CPU features (``X86_V2``...), as ``NPY_ENABLE_CPU_FEATURES`` takes them,
    read from this process's numpy; empty when numpy is missing or does not say."""
    try:
        from numpy._core._multiarray_umath import __cpu_baseline__
    except ImportError:
        return ""
    return " ".join(__cpu_baseline__)


def pinned_environ(base: dict) -> dict:
    """``base`` (an environment) with the variables that make ReasoningGym machine-independent.

    These act when a process starts (Python reads them at start-up, OpenBLAS and numpy when they
    load), so they are for a new process, never this one."""
    env = dict(base)
    env.update(
        PYTHONHASHSEED="0",
        OPENBLAS_NUM_THREADS="1",
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        LC_ALL="C.UTF-8",
        LANG="C.UTF-8",
        TZ="UTC",
    )
    kernel = BASELINE_BLAS_KERNEL.get(platform.machine().lower())
    if kernel:
        env["OPENBLAS_CORETYPE"] = kernel
    else:
        env.pop("OPENBLAS_CORETYPE", None)
    baseline = numpy_baseline()
    if baseline:
        env["NPY_ENABLE_CPU_FEATURES"] = baseline
    env.pop("NPY_DISABLE_CPU_FEATURES", None)
    return env


def _seed_globals(seed: int) -> None:
    random.seed(seed)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(seed % 2**32)


def _global_state():
    numpy = sys.modules.get("numpy")
    return random.getstate(), (numpy.random.get_state() if numpy is not None else None)


def _restore_global_state(state) -> None:
    python_state, numpy_state = state
    random.setstate(python_state)
    if numpy_state is not None:
        sys.modules["numpy"].random.set_state(numpy_state)


def _pinned_getitem(getitem):
    @functools.wraps(getitem)
    def pinned(self, idx):
        saved = _global_state()
        _seed_globals((getattr(self, "seed", None) or 0) + int(idx))
        try:
            return getitem(self, idx)
        finally:
            _restore_global_state(saved)

    pinned.geode_pinned = True
    return pinned


def pin_library(reasoning_gym) -> None:
    """Pins what ReasoningGym reads from this process's state (idempotent): every dataset's
    items are generated with the global generators seeded from ``seed + idx``, and
    ``figlet_font`` lists its fonts sorted by name."""
    for dataset_cls, _config in reasoning_gym.factory.DATASETS.values():
        owner = next(c for c in dataset_cls.__mro__ if "__getitem__" in c.__dict__)
        getitem = owner.__dict__["__getitem__"]
        if not getattr(getitem, "geode_pinned", False):
            owner.__getitem__ = _pinned_getitem(getitem)
    figlet = sys.modules.get("reasoning_gym.cognition.figlet_fonts")
    if figlet is not None:
        figlet.ALL_FONTS.sort()
        figlet.OK_FONTS.sort()
