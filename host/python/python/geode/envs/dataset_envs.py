"""GEM's dataset env classes as entry points for ``register``: GEM's example of adding a new
dataset registers an id with ``"gem.envs.math_env:MathEnv"`` (or ``code_env:CodeEnv``,
``qa_env:QaEnv``) and the dataset's keywords. geode runs such an id on its native env of the same
family, configured with those keywords (``dataset_name`` + ``split`` are loaded with the
``datasets`` library, as GEM loads them; ``dataset=`` takes a path, rows or a
``datasets.Dataset``). The env made reports the family's id (``math:GSM8K``, ...) as its
``env_id``: that is the native env it runs."""

from typing import Any

from geode.errors import BadConfigError


def make_family(base_id: str, cls: str, kwargs: dict) -> Any:
    """A native env of ``base_id``'s family, configured by GEM-style constructor ``kwargs``."""
    from geode.envs.registration import make

    if not kwargs.get("dataset_name") and kwargs.get("dataset") is None:
        raise BadConfigError(f"{cls} needs `dataset_name` or `dataset` (its rows)")
    return make(base_id, **kwargs)


def MathEnv(**kwargs: Any) -> Any:
    """GEM's ``MathEnv``: geode's native math env (``math:GSM8K``'s family) configured by ``kwargs``."""
    return make_family("math:GSM8K", "MathEnv", kwargs)


def CodeEnv(**kwargs: Any) -> Any:
    """GEM's ``CodeEnv``: geode's native code env (``code:CodeContest``'s family) configured by ``kwargs``."""
    return make_family("code:CodeContest", "CodeEnv", kwargs)


def QaEnv(**kwargs: Any) -> Any:
    """GEM's ``QaEnv``: geode's question-answering env (``qa:NaturalQuestions``'s family) configured by ``kwargs``."""
    return make_family("qa:NaturalQuestions", "QaEnv", kwargs)
