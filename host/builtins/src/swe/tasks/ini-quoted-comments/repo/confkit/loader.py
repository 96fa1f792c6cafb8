"""Reading configuration files."""

from pathlib import Path
from typing import Iterable, Union

from .config import Config
from .merge import merge
from .parser import parse

PathLike = Union[str, Path]


def load(path: PathLike) -> Config:
    text = Path(path).read_text(encoding="utf-8")
    return parse(text.lstrip("\ufeff"))


def load_many(paths: Iterable[PathLike], missing_ok: bool = False) -> Config:
    """Load and merge several files; later files override earlier ones."""
    configs = []
    for path in paths:
        if missing_ok and not Path(path).exists():
            continue
        configs.append(load(path))
    return merge(*configs)
