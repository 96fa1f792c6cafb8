"""Layering configurations."""

from .config import Config


def merge(*configs: Config) -> Config:
    """A new config with the keys of all ``configs``; later ones win."""
    result = Config()
    for config in configs:
        for section in config:
            result.add_section(section)
            for key, value in config.items(section, raw=True).items():
                result.set(section, key, value)
    return result
