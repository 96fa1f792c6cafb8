"""Serialising a :class:`Config` back to text."""

from .config import Config

_NEEDS_QUOTES = (";", "#", '"', "'", "\n")


def quote_value(value: str) -> str:
    if value != value.strip() or any(c in value for c in _NEEDS_QUOTES):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    return value


def dumps(config: Config) -> str:
    blocks = []
    for name in config:
        lines = [f"[{name}]"]
        for key, value in config.items(name, raw=True).items():
            lines.append(f"{key} = {quote_value(value)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
