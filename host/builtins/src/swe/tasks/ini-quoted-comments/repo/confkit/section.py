"""A section of a configuration."""

from typing import Dict, Iterator


class Section:
    def __init__(self, name: str) -> None:
        self.name = name
        self._values: Dict[str, str] = {}

    def set(self, key: str, value: str) -> None:
        self._values[key.lower()] = value

    def raw(self, key: str) -> str:
        return self._values[key.lower()]

    def __contains__(self, key: str) -> bool:
        return key.lower() in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def items(self):
        return self._values.items()
