"""Retry policy."""


def backoff(attempt: int, base: float = 0.5, factor: float = 2.0, cap: float = 30.0) -> float:
    """Delay in seconds before retry number ``attempt`` (1-based)."""
    if attempt < 1:
        raise ValueError("attempt numbers start at 1")
    return min(cap, base * factor ** (attempt - 1))
