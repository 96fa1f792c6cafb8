"""Validating configurations against a schema."""

from dataclasses import dataclass
from typing import Any, Dict, Optional, Sequence

from .config import Config
from .errors import SchemaError
from .types import CONVERTERS


@dataclass
class Field:
    type: str = "str"
    required: bool = False
    default: Any = None
    choices: Optional[Sequence[Any]] = None

    def __post_init__(self):
        if self.type not in CONVERTERS:
            raise ValueError(f"unknown field type {self.type!r}")


class Schema:
    def __init__(self, sections: Dict[str, Dict[str, Field]]) -> None:
        self.sections = sections

    def validate(self, config: Config) -> Dict[str, Dict[str, Any]]:
        result: Dict[str, Dict[str, Any]] = {}
        problems = []
        for section, fields in self.sections.items():
            values = result.setdefault(section, {})
            for key, field in fields.items():
                where = f"[{section}] {key}"
                if not config.has(section, key):
                    if field.required:
                        problems.append(f"{where}: missing")
                    else:
                        values[key] = field.default
                    continue
                raw = config.get(section, key)
                try:
                    value = CONVERTERS[field.type](raw)
                except ValueError:
                    problems.append(f"{where}: expected {field.type}, got {raw!r}")
                    continue
                if field.choices is not None and value not in field.choices:
                    problems.append(f"{where}: {value!r} not in {list(field.choices)!r}")
                    continue
                values[key] = value
        if problems:
            raise SchemaError(problems)
        return result
