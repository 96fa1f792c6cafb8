"""Environment variable overrides."""

from typing import Mapping

from .config import Config


def apply_env(config: Config, environ: Mapping[str, str], prefix: str = "APP") -> int:
    """Apply ``PREFIX__SECTION__KEY=value`` variables; returns how many applied.

    The section part is matched case-insensitively against existing sections;
    unknown sections are created with the lower-cased name.
    """
    marker = prefix.upper() + "__"
    applied = 0
    for name in sorted(environ):
        if not name.upper().startswith(marker):
            continue
        parts = name[len(marker):].split("__")
        if len(parts) != 2 or not all(parts):
            continue
        section_part, key = parts
        section = next((s for s in config if s.lower() == section_part.lower()), section_part.lower())
        config.set(section, key.lower(), environ[name])
        applied += 1
    return applied
