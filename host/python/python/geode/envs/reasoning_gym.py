"""GEM's ReasoningGym envs (``rg:<name>``, one per dataset of ReasoningGym's registry).

ReasoningGym (``reasoning_gym``) needs numpy, matplotlib and compiled extensions, which the
WebAssembly sandbox does not have, so these envs run in the host's Python, as GEM runs them: a
trusted library generates the questions and scores the (untrusted) replies. They are an optional
extra: ``pip install geode[rg]``. The ids are registered whether or not the library is
installed; making one without it raises ``MissingExtraError`` naming the extra.

The rules are GEM's (``gem.envs.reasoning_gym.ReasoningGymEnv``):

- config ``name`` (the dataset), ``size`` (500) and ``seed`` (42): the env generates
  ``reasoning_gym.create_dataset(name, size=size, seed=seed)``;
- a reset without a seed poses the dataset's next question; past the last one the dataset is
  generated again with seed ``seed + idx`` (``idx``: the resets so far) and walked from its start;
- a reset with a seed seeds Python's and numpy's global generators with it (as every GEM env
  does) and poses ``random.choice(dataset)`` drawn from that seed; when ``idx + 1`` is a multiple
  of ``size`` it also regenerates the dataset it draws from with seed ``seed + idx`` (the walk of
  unseeded resets goes on in the old one until it ends, as in GEM);
- a step scores the content of the reply's last ``\\boxed{}`` (None when there is none) with the
  dataset's own ``score_answer`` and ends the episode: ``TERMINAL_STATE``, terminated and
  truncated both set, info ``{}``. One difference: a scorer that raises gives reward 0.0 and info
  ``error`` (what it raised) and ``error_type`` ``"ScorerError"``, where GEM's step would raise.

One more difference, deliberate: GEM generates the questions in the trainer's process, where
some depend on the process and the machine (the string hash seed, the global generators' state,
the BLAS kernel, the order a directory is listed in: ``reasoning_gym_pins.py`` names the ids).
geode generates and scores them in one helper process per Python process, started under pinned
conditions (``reasoning_gym_process.py``), so a question depends only on ``(name, size, seed)``
and its index: every node of a trainer, every run, every machine of one architecture poses the
same ones. Its calls are bounded (``generate_timeout``, ``score_timeout`` in seconds): a scorer
that hangs or crashes gives reward 0.0 with ``error_type`` ``"ScorerTimeout"`` or
``"ScorerCrashed"``; a question that cannot be generated in time raises
``DeadlineExceededError``.
"""

import random
import warnings
from typing import Any, Dict, Optional, SupportsFloat, Tuple

from geode.core import Env
from geode.envs.reasoning_gym_process import ReasoningGymProcess
from geode.errors import DeadlineExceededError, EnvTrappedError, InvalidStateError, MissingExtraError
from geode.utils.constants import TERMINAL_STATE
from geode.utils.parsing import extract_last_boxed_answer
from geode.utils.seeding import set_seed

#: The ReasoningGym version the ``rg`` extra pins (the one GEM's current code depends on).
REASONING_GYM_VERSION = "0.1.23"

#: ``sorted(reasoning_gym.factory.DATASETS)`` of reasoning-gym 0.1.23: GEM registers ``rg:<name>``
#: for each. Kept here so the ids are listed (and explain the missing extra) without the library.
DATASETS = (
    "ab", "acre", "advanced_geometry", "aiw", "arc_1d", "arc_agi", "base_conversion",
    "basic_arithmetic", "bf", "binary_alternation", "binary_matrix", "bitwise_arithmetic",
    "boxnet", "caesar_cipher", "calendar_arithmetic", "chain_sum", "circuit_logic", "codeio",
    "color_cube_rotation", "complex_arithmetic", "composite", "count_bits", "count_primes",
    "countdown", "course_schedule", "cryptarithm", "decimal_arithmetic", "decimal_chain_sum",
    "dice", "emoji_mystery", "family_relationships", "figlet_font", "fraction_simplification",
    "futoshiki", "game_of_life", "game_of_life_halting", "gcd", "graph_color", "group_anagrams",
    "gsm_symbolic", "intermediate_integration", "isomorphic_strings", "jugs", "kakurasu",
    "knight_swap", "knights_knaves", "largest_island", "lcm", "leg_counting", "letter_counting",
    "letter_jumble", "list_functions", "mahjong_puzzle", "manipulate_matrix", "maze",
    "mini_sudoku", "modulo_grid", "n_queens", "needle_haystack", "number_filtering",
    "number_format", "number_sequence", "number_sorting", "palindrome_generation",
    "palindrome_partitioning", "polynomial_equations", "polynomial_multiplication",
    "pool_matrix", "power_function", "prime_factorization", "products", "propositional_logic",
    "puzzle24", "quantum_lock", "ransom_note", "rearc", "rectangle_count", "rotate_matrix",
    "rotten_oranges", "rubiks_cube", "rush_hour", "self_reference", "sentence_reordering",
    "shortest_path", "simple_equations", "simple_geometry", "simple_integration", "sokoban",
    "spell_backward", "spiral_matrix", "string_insertion", "string_manipulation",
    "string_splitting", "string_synthesis", "sudoku", "survo", "syllogism", "time_intervals",
    "tower_of_hanoi", "tsumego", "word_ladder", "word_sequence_reversal", "word_sorting",
    "zebra_puzzles",
)

ENTRY_POINT = "geode.envs.reasoning_gym:ReasoningGymEnv"


def load_reasoning_gym(what: str = "ReasoningGym envs"):
    """The ``reasoning_gym`` module, or ``MissingExtraError`` saying how to install it."""
    try:
        import reasoning_gym
    except ImportError as error:
        raise MissingExtraError(
            f"{what} need the ReasoningGym library, which geode runs in the host's Python: "
            f"pip install 'geode[rg]' (reasoning-gym=={REASONING_GYM_VERSION}); "
            f"importing reasoning_gym failed: {error}",
            name="reasoning_gym",
        ) from error
    return reasoning_gym


def available() -> bool:
    """Whether the ``rg`` extra is installed (``reasoning_gym`` imports)."""
    try:
        load_reasoning_gym()
    except MissingExtraError:
        return False
    return True


class PinnedDataset:
    """One ReasoningGym dataset, generated in the helper process: ``len``, items by index, a
    walk (``iter``) and ``score_answer``, as GEM uses the dataset object."""

    def __init__(self, process: ReasoningGymProcess, name: str, size: int, seed: int,
                 generate_timeout: float, score_timeout: float) -> None:
        self.process, self.name, self.size, self.seed = process, name, size, seed
        self.generate_timeout, self.score_timeout = generate_timeout, score_timeout
        process.call(generate_timeout, "create", name, size, seed)  # GEM raises its errors at make

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, idx: int) -> Dict[str, Any]:
        if not 0 <= idx < self.size:
            raise IndexError(f"rg:{self.name}: index {idx} out of range for a dataset of {self.size}")
        return self.process.call(self.generate_timeout, "item", self.name, self.size, self.seed, idx)

    def __iter__(self):
        return (self[idx] for idx in range(self.size))

    def score_answer(self, answer: Optional[str], entry: Dict[str, Any]) -> float:
        """The dataset's own score of ``answer`` for ``entry``."""
        return self.process.call(self.score_timeout, "score", self.name, self.size, self.seed, answer, entry)


class ReasoningGymEnv(Env):
    """One ReasoningGym dataset as a single-turn env: a reset poses a question, the step scores
    the reply's last ``\\boxed{}`` with the dataset's ``score_answer``."""

    def __init__(self, name: str, size: int = 500, seed: int = 42, generate_timeout: float = 120.0,
                 score_timeout: float = 30.0, **_: Any) -> None:
        super().__init__()
        self._rg = load_reasoning_gym(f"rg:{name}")  # entries unpickle into its classes here
        self.idx = 0
        self.name = name
        self.size = size
        self.seed = seed
        self.generate_timeout = generate_timeout
        self.score_timeout = score_timeout
        self.ds = self._create(seed)
        self.ds_iter = iter(self.ds)
        self.reward_fn = self.ds.score_answer
        self.data: Optional[Dict[str, Any]] = None

    def _create(self, seed: int) -> PinnedDataset:
        return PinnedDataset(ReasoningGymProcess.shared(), self.name, self.size, seed,
                             self.generate_timeout, self.score_timeout)

    def reset(self, seed: Optional[int] = None) -> Tuple[str, Dict[str, Any]]:
        """Poses the next question (no seed) or one drawn from ``seed``."""
        if seed is not None:
            set_seed(seed)  # GEM's Env.reset seeds the global generators
            # The draw GEM makes with the global generator just seeded, from a generator of our
            # own: the same question, and no other thread can move it in between.
            data = random.Random(seed).choice(self.ds)
            if (self.idx + 1) % self.size == 0:
                self.ds = self._create(self.seed + self.idx)
        else:
            try:
                data = next(self.ds_iter)
            except StopIteration:
                self.ds = self._create(self.seed + self.idx)
                self.ds_iter = iter(self.ds)
                data = next(self.ds_iter)
        self.idx += 1
        self.data = data
        return data["question"], {}

    def step(self, action: str) -> Tuple[str, SupportsFloat, bool, bool, Dict[str, Any]]:
        """Scores the content of the last ``\\boxed{}`` of ``action``; the episode ends."""
        if self.data is None:
            raise InvalidStateError(f"rg:{self.name}: step before reset")
        answer = extract_last_boxed_answer(action)
        try:
            reward = self.reward_fn(answer=answer, entry=self.data)
        except DeadlineExceededError as error:  # the scorer hung on this reply: it earns nothing
            return TERMINAL_STATE, 0.0, True, True, {"error": str(error), "error_type": "ScorerTimeout"}
        except EnvTrappedError as error:  # the scorer took its process down
            return TERMINAL_STATE, 0.0, True, True, {"error": str(error), "error_type": "ScorerCrashed"}
        except Exception as error:  # the dataset's scorer failed on this reply: it earns nothing
            info = {
                "error": f"rg:{self.name}: score_answer raised {type(error).__name__}: {error}",
                "error_type": "ScorerError",
            }
            return TERMINAL_STATE, 0.0, True, True, info
        return TERMINAL_STATE, reward, True, True, {}

    def sample_random_action(self) -> str:
        """The current question's reference answer, boxed (ReasoningGym has no action space)."""
        answer = (self.data or {}).get("answer")
        return f"\\boxed{{{answer}}}"

    def get_state(self) -> Dict[str, Any]:
        """GEM's state of the env: resets so far and the current entry."""
        return {"idx": self.idx, "data": self.data}

    def set_state(self, state: Dict[str, Any]) -> None:
        """Restores ``get_state``'s result (the dataset walk is not part of it, as in GEM)."""
        self.idx = state["idx"]
        self.data = state["data"]

    def spawn(self, same_state: bool = False, **kwargs) -> "ReasoningGymEnv":
        """A new env on the same dataset: in this env's state, or freshly made with ``kwargs``."""
        if same_state:
            child = ReasoningGymEnv(name=self.name, size=self.size, seed=self.seed,
                                    generate_timeout=self.generate_timeout, score_timeout=self.score_timeout)
            child.set_state(self.get_state())
        else:
            child = ReasoningGymEnv(name=self.name, size=self.size, **kwargs)
            if child.seed == self.seed:
                warnings.warn(
                    "spawn(same_state=False) kept the seed: the child poses the same questions in the same order"
                )
        for attr in ("env_id", "entry_point"):
            if hasattr(self, attr):
                setattr(child, attr, getattr(self, attr))
        return child


def env_specs() -> list:
    """GEM's registration of ``rg:<name>`` for every dataset (``name``, ``size=500``,
    ``seed=42``), as ``EnvSpec`` keyword arguments, without importing ReasoningGym."""
    return [
        dict(
            id=f"rg:{name}",
            entry_point=ENTRY_POINT,
            kwargs={"name": name, "size": 500, "seed": 42},
            description=f"ReasoningGym's {name} (host Python; needs geode[rg])",
        )
        for name in DATASETS
    ]
