"""The :class:`Config` object."""

from typing import Dict, Iterator, List, Optional

from .errors import MissingError
from .interpolation import interpolate
from .section import Section
from .types import to_bool, to_duration, to_list

_NO_DEFAULT = object()


class Config:
    def __init__(self) -> None:
        self._sections: Dict[str, Section] = {}

    def add_section(self, name: str) -> Section:
        return self._sections.setdefault(name, Section(name))

    def sections(self) -> List[str]:
        return list(self._sections)

    def section(self, name: str) -> Section:
        try:
            return self._sections[name]
        except KeyError:
            raise MissingError(f"no section [{name}]") from None

    def has(self, section: str, key: str) -> bool:
        return section in self._sections and key in self._sections[section]

    def set(self, section: str, key: str, value: str) -> None:
        self.add_section(section).set(key, value)

    def get(self, section: str, key: str, default=_NO_DEFAULT, raw: bool = False) -> str:
        if not self.has(section, key):
            if default is not _NO_DEFAULT:
                return default
            raise MissingError(f"no key {key!r} in section [{section}]")
        value = self._sections[section].raw(key)
        return value if raw else interpolate(self, section, value)

    def getint(self, section: str, key: str, default=_NO_DEFAULT) -> int:
        value = self.get(section, key, default)
        return value if value is default else int(value)

    def getfloat(self, section: str, key: str, default=_NO_DEFAULT) -> float:
        value = self.get(section, key, default)
        return value if value is default else float(value)

    def getbool(self, section: str, key: str, default=_NO_DEFAULT) -> bool:
        value = self.get(section, key, default)
        return value if value is default else to_bool(value)

    def getlist(self, section: str, key: str, default=_NO_DEFAULT) -> List[str]:
        value = self.get(section, key, default)
        return value if value is default else to_list(value)

    def getduration(self, section: str, key: str, default=_NO_DEFAULT) -> int:
        value = self.get(section, key, default)
        return value if value is default else to_duration(value)

    def items(self, section: str, raw: bool = False) -> Dict[str, str]:
        return {k: self.get(section, k, raw=raw) for k in self.section(section)}

    def __iter__(self) -> Iterator[str]:
        return iter(self._sections)

    def to_dict(self, raw: bool = True) -> Dict[str, Dict[str, str]]:
        return {name: self.items(name, raw=raw) for name in self._sections}
