"""Validating query parameters."""

from typing import Optional

from .errors import BadRequest


def parse_positive_int(
    value: Optional[str], name: str, default: int, maximum: Optional[int] = None
) -> int:
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise BadRequest(f"{name} must be an integer, got {value!r}") from None
    if number < 1:
        raise BadRequest(f"{name} must be at least 1")
    if maximum is not None and number > maximum:
        raise BadRequest(f"{name} must be at most {maximum}")
    return number
