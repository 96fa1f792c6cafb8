"""Records kept by the store."""

from dataclasses import dataclass, field
from typing import Tuple


@dataclass(frozen=True)
class Book:
    id: int
    title: str
    author: str
    year: int
    tags: Tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Author:
    name: str
    books: int
