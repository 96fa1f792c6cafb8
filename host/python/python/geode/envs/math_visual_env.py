"""GEM's ``math:Geometry3K`` (``gem.envs.math_visual_env.MathVisualEnv``): math questions that
come with pictures.

The observation of a reset is a dict, ``{"problem": text, "images": [PIL.Image.Image, ...]}``,
as GEM gives it, so the env runs in the host's Python (geode's WIT contract carries text
observations) and needs Pillow: ``pip install geode[vision]``. Making the env without it raises
``MissingExtraError`` naming the extra. The reply is graded by geode's sandboxed math grader, with
the rules of GEM's ``MathEnv``: the last ``\\boxed{}`` against the row's answer (a string, a
number, or a list of either: any may match), reward 1.0 or 0, ``TERMINAL_STATE``, terminated and
truncated both set, info ``{"correct": 1}`` or ``{"correct": 0}`` (ints, as GEM's).

Rows: ``dataset`` (a list of dicts, a ``datasets.Dataset``, or a ``.jsonl`` path), else
``dataset_name`` through ``datasets.load_dataset``, except GEM's default
(``axon-rl/geometry3k``), for which the sample shipped with geode is used (``data/``: problems
written for geode, see ``generate_geometry3k.py``). An image may be a PIL image, raw PNG/JPEG
bytes, or a dict with ``bytes`` (raw or base64) as a ``datasets`` Image column holds it.

Resets follow GEM: ``idx`` picks a row; a seed seeds Python's and numpy's generators and picks a
random row; otherwise the env walks its rows in an order shuffled with ``seed`` (the rows' own
order with ``eval=True``), reshuffled with ``seed + epoch`` at the end of each pass. The shuffle
is geode's own, so the order differs from GEM's (which shuffles through ``datasets``). One
deliberate difference: GEM's ``MathVisualEnv.reset`` first runs ``MathEnv.reset``, which walks a
row of its own, so GEM poses every other row, takes the second random draw after a seed, and may
reshuffle the rows before an ``idx`` reset; geode poses every row, takes the first draw, and an
``idx`` reset poses that row.
"""

import base64
import io
import json
import random
from pathlib import Path
from typing import Any, Dict, List, Optional, SupportsFloat, Tuple

from geode.core import Env
from geode.errors import BadConfigError, InvalidStateError, MissingExtraError
from geode.utils.constants import TERMINAL_STATE
from geode.utils.math_grader import boxed_reward_fn
from geode.utils.seeding import set_seed

#: The ``dataset_name`` GEM registers ``math:Geometry3K`` with: served from the shipped sample.
DEFAULT_DATASET = "axon-rl/geometry3k"
SAMPLE = Path(__file__).with_name("data") / "geometry3k.jsonl"


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise MissingExtraError(
            "math:Geometry3K returns its pictures as PIL images and needs Pillow: "
            "pip install geode[vision] (or pip install pillow)"
        ) from None
    return Image


def _read_jsonl(path: Path) -> List[Dict[str, Any]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise BadConfigError(f"math:Geometry3K: cannot read dataset {str(path)!r}: {error}") from error
    rows = []
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise BadConfigError(f"math:Geometry3K: {path}:{number} is not JSON: {error}") from error
    return rows


def _rows(dataset: Any, dataset_name: Optional[str], split: Optional[str]) -> List[Dict[str, Any]]:
    if dataset is None and dataset_name not in (None, "", DEFAULT_DATASET):
        from geode.envs.kwargs import load_named_dataset

        dataset = load_named_dataset("math:Geometry3K", dataset_name, split)
    if dataset is None:
        return _read_jsonl(SAMPLE)
    if isinstance(dataset, (str, Path)):
        return _read_jsonl(Path(dataset).expanduser())
    rows = dataset.to_list() if hasattr(dataset, "to_list") else list(dataset)
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise BadConfigError(f"math:Geometry3K: `dataset` row {i} is a {type(row).__name__}, not a dict")
    return rows


def _image(value: Any, pil) -> Any:
    """A PIL image (``pil``: the ``PIL.Image`` module) from what a row holds for one picture."""
    if isinstance(value, pil.Image):
        return value
    data = value.get("bytes") if isinstance(value, dict) else value
    if isinstance(data, str):
        data = base64.b64decode(data, validate=True)
    if not isinstance(data, (bytes, bytearray)):
        raise BadConfigError(
            f"math:Geometry3K: an image must be a PIL image, bytes, or a dict with `bytes`; got {type(value).__name__}"
        )
    image = pil.open(io.BytesIO(data))
    image.load()
    return image


class MathVisualEnv(Env):
    """A single-turn env over rows of (problem, images, answer); see the module documentation."""

    def __init__(
        self,
        dataset_name: Optional[str] = "",
        split: Optional[str] = None,
        dataset: Any = None,
        image_key: str = "images",
        question_key: str = "problem",
        answer_key: str = "answer",
        seed: int = 0,
        use_mp: bool = True,
        **kwargs: Any,
    ):
        self._pil = _pillow()
        self.seed = seed
        self.image_key, self.question_key, self.answer_key = image_key, question_key, answer_key
        self.use_mp = use_mp  # GEM grades in a process pool; geode's grader is sandboxed anyway
        self.rows = _rows(dataset, dataset_name, split)
        if not self.rows:
            raise BadConfigError("math:Geometry3K: the dataset has no rows")
        for i, row in enumerate(self.rows):
            missing = [k for k in (question_key, answer_key, image_key) if k not in row]
            if missing:
                raise BadConfigError(f"math:Geometry3K: row {i} has no {', '.join(map(repr, missing))}")
        self.eval = bool(kwargs.get("eval", False))
        self.order = self._shuffled(self.seed)
        self.idx = 0
        self.epoch = 0
        self.first_obs: Optional[Dict[str, Any]] = None
        self.answer: Any = None

    def _shuffled(self, seed: int) -> List[int]:
        order = list(range(len(self.rows)))
        if not self.eval:
            random.Random(seed).shuffle(order)
        return order

    def reset(self, seed: Optional[int] = None, idx: Optional[int] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Poses a question: ``({"problem": ..., "images": [...]}, {})``."""
        if seed is not None:
            set_seed(seed)
        if idx is not None:
            if not 0 <= idx < len(self.rows):
                raise BadConfigError(f"math:Geometry3K: idx {idx} is outside 0..{len(self.rows) - 1}")
            self.idx = idx
        elif seed is not None:
            self.idx = random.randint(0, len(self.rows) - 1)
        elif self.idx == len(self.rows):
            self.epoch += 1
            self.order = self._shuffled(self.seed + self.epoch)
            self.idx = 0
        row = self.rows[self.order[self.idx]]
        images = row[self.image_key]
        images = images if isinstance(images, list) else [images]
        self.first_obs = {
            "problem": row[self.question_key],
            "images": [_image(image, self._pil) for image in images],
        }
        self.answer = row[self.answer_key]
        self.idx += 1
        return self.first_obs, {}

    def step(self, action: str) -> Tuple[str, SupportsFloat, bool, bool, Dict[str, Any]]:
        """Grades ``action``'s last ``\\boxed{}``; the episode ends."""
        if self.first_obs is None:
            raise InvalidStateError("math:Geometry3K: step called before reset")
        correct = self.check_correct(action, self.answer)
        return TERMINAL_STATE, 1.0 if correct else 0, True, True, {"correct": correct}

    @staticmethod
    def check_correct(model_answer: str, gt_answer: Any) -> int:
        """1 when the last ``\\boxed{}`` of ``model_answer`` matches ``gt_answer`` (any of a
        list), else 0 (GEM's value: the reward of its grader, an int)."""
        if not isinstance(gt_answer, (str, float, int, list)):
            raise BadConfigError(f"math:Geometry3K: unexpected answer type {type(gt_answer).__name__}")
        _, reward = boxed_reward_fn(model_answer, gt_answer, fast=False, correct_reward=1, incorrect_reward=0)
        return reward

    def sample_random_action(self) -> str:
        """GEM's random action for math envs."""
        return "\\boxed{42}"

    def get_state(self) -> Dict[str, Any]:
        """The current question and its answer."""
        return {"first_obs": self.first_obs, "answer": self.answer}

    def set_state(self, state: Dict[str, Any]) -> None:
        """Restores a state from ``get_state``."""
        self.first_obs = state["first_obs"]
        self.answer = state["answer"]
