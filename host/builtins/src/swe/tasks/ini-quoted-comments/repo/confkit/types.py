"""Conversions from strings."""

import re
from typing import List

_TRUE = {"1", "yes", "true", "on"}
_FALSE = {"0", "no", "false", "off"}
_DURATION = re.compile(r"^(\d+)\s*([smhd]?)$")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def to_bool(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError(f"not a boolean: {value!r}")


def to_list(value: str) -> List[str]:
    return [item.strip() for item in value.replace("\n", ",").split(",") if item.strip()]


def to_duration(value: str) -> int:
    """Seconds in ``"90"``, ``"90s"``, ``"5m"``, ``"2h"`` or ``"1d"``."""
    m = _DURATION.match(value.strip().lower())
    if m is None:
        raise ValueError(f"not a duration: {value!r}")
    return int(m.group(1)) * _UNITS[m.group(2)]


CONVERTERS = {
    "str": str,
    "int": int,
    "float": float,
    "bool": to_bool,
    "list": to_list,
    "duration": to_duration,
}
