"""GEM's keyword-argument leniency for geode's own envs.

GEM envs take ``**kwargs`` and ignore what they do not use, and GEM's own scripts pass such
keywords (``verbose=``, ``use_mp=False``, ``load_from_cache_file=``...). geode's envs have a
fixed config, so ``config_for`` sorts the keywords ``make``/``make_vec`` receive:

- config keys of the env go through (``dataset`` may also be a ``datasets.Dataset``, a list of
  row dicts or a path; rows are written to a JSONL file the env reads);
- keywords GEM's scripts pass that no geode env needs are dropped silently (``PASS_THROUGH``);
- ``dataset_name`` (with ``split``) loads the rows with ``datasets.load_dataset`` as GEM does
  (a hub id, or a local directory or file), when the ``datasets`` library is installed; without
  it, or when loading fails, ``BadConfigError`` says so: ignoring it would silently train on
  other data;
- a near miss of a config key (``max_turn`` for ``max_turns``) raises ``BadConfigError``: it is
  a typo, not a GEM habit;
- any other keyword is dropped with a warning that names it, or raises ``BadConfigError`` in
  strict mode (``strict=True`` or ``GEODE_STRICT=1``), as every unknown key did before.
"""

import difflib
import json
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any, Dict, Iterable, Mapping, Optional

from geode import _geode
from geode.errors import BadConfigError

#: Keywords GEM's scripts pass to ``make`` that only steer GEM's own loading or logging.
PASS_THROUGH = frozenset({"verbose", "use_mp", "load_from_cache_file", "num_proc", "cache_dir"})

_rows_dir: Optional[Path] = None


def strict_from_env() -> bool:
    """Whether ``GEODE_STRICT`` asks for unknown keywords to raise."""
    return os.environ.get("GEODE_STRICT", "").strip().lower() in ("1", "true", "yes")


def config_for(env_id: str, known: Mapping[str, Any], kwargs: Dict[str, Any], strict: bool) -> Dict[str, Any]:
    """The config overrides of ``env_id`` (whose config keys are ``known``) in ``kwargs``."""
    config = {}
    # GEM's constructors take `dataset=None` for "load `dataset_name`": absent, not empty.
    kwargs = {k: v for k, v in kwargs.items() if not (k == "dataset" and v is None)}
    name, split = kwargs.pop("dataset_name", None), kwargs.pop("split", None)
    if name and kwargs.get("dataset") is None:
        if "dataset" not in known:
            raise BadConfigError(f"{env_id} reads no dataset; `dataset_name` does not apply to it")
        kwargs["dataset"] = load_named_dataset(env_id, name, split)
    for key, value in kwargs.items():
        if key in known:
            config[key] = dataset_path(value) if key == "dataset" else value
            if key == "seed" and value is not None:
                config[key] = _geode.reduce_seed(value)
        elif strict or _near_miss(key, known):
            # The runtime rejects it with its own BadConfigError (naming the key and the known ones).
            config[key] = value
        elif key not in PASS_THROUGH:
            warnings.warn(
                f"{env_id} has no config key {key!r}; ignored as GEM ignores unknown keywords "
                f"(known keys: {', '.join(sorted(known)) or 'none'}; strict=True makes this an error)",
                stacklevel=3,
            )
    return config


def load_named_dataset(env_id: str, name: str, split: Optional[str]) -> Any:
    """The rows GEM's dataset envs load for ``dataset_name=name`` (and ``split``):
    ``datasets.load_dataset(name)``, then the split asked for, or the only one."""
    try:
        import datasets
    except ImportError:
        raise BadConfigError(
            f"{env_id}: dataset_name={name!r} needs the `datasets` library (pip install datasets); "
            "or pass `dataset=` a .jsonl/.parquet path, a list of row dicts or a datasets.Dataset"
        ) from None
    try:
        loaded = datasets.load_dataset(name)
    except Exception as error:  # the library's errors name the cause (offline, not found, ...)
        raise BadConfigError(f"{env_id}: datasets.load_dataset({name!r}) failed: {error}") from error
    if isinstance(loaded, datasets.DatasetDict):
        splits = list(loaded.keys())
        if split is None and len(splits) == 1:
            split = splits[0]
        if split not in loaded:
            wanted = f"split {split!r} is not one of" if split is not None else "pass `split`, one of"
            raise BadConfigError(f"{env_id}: dataset {name!r}: {wanted} {splits}")
        loaded = loaded[split]
    return loaded


def _near_miss(key: str, known: Mapping[str, Any]) -> Optional[str]:
    """The config key ``key`` is most likely a misspelling of, if any: a typo is an error even
    in lenient mode, since ignoring it would silently run with a setting the user did not ask for."""
    close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.8)
    return close[0] if close else None


def dataset_path(value: Any) -> Any:
    """A ``dataset`` value as the path the env reads: paths stay; rows (a ``datasets.Dataset``
    or any iterable of dicts) are written to a JSONL file in a directory geode reads from."""
    if value is None or isinstance(value, (str, os.PathLike)):
        return None if value is None else os.fspath(value)
    rows = value.to_list() if hasattr(value, "to_list") else value
    if isinstance(rows, Mapping) or not isinstance(rows, Iterable):
        raise BadConfigError(
            f"`dataset` must be a path, a datasets.Dataset or a list of row dicts, got {type(value).__name__}"
        )
    return str(_write_rows(rows))


def _write_rows(rows: Iterable[Any]) -> Path:
    global _rows_dir
    if _rows_dir is None:
        _rows_dir = Path(tempfile.mkdtemp(prefix="geode-rows-"))
        _geode.add_data_dir(str(_rows_dir))
    handle, name = tempfile.mkstemp(suffix=".jsonl", dir=_rows_dir)
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        for i, row in enumerate(rows):
            if not isinstance(row, Mapping):
                raise BadConfigError(f"`dataset` row {i} is a {type(row).__name__}, not a dict")
            out.write(json.dumps(dict(row), ensure_ascii=False))
            out.write("\n")
    return Path(name)
