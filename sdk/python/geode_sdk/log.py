"""Messages to the host's log."""

_LEVELS = ("trace", "debug", "info", "warn", "error")


def log(message, level="info"):
    """Sends ``message`` to the host's log: geode prints warnings and errors, and every level
    when ``GEODE_LOG`` is set. Outside a component (unit tests) it prints to stderr."""
    if level not in _LEVELS:
        raise ValueError(f"level must be one of {_LEVELS}")
    try:
        from wit_world.imports import log as contract
    except ImportError:
        import sys

        print(f"[{level}] {message}", file=sys.stderr)
        return
    contract.log(contract.Level[level.upper()], str(message))
