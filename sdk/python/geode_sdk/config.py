"""An env's configuration: the id's default config merged with the user's overrides."""

from .errors import BadConfig

_MISSING = object()


class Config(dict):
    """The parsed configuration (a dict), with typed getters that raise :class:`BadConfig`
    naming the key when a value is missing or has the wrong type."""

    def _get(self, key, kinds, what, default):
        value = self.get(key, default)
        if value is _MISSING:
            raise BadConfig(f"config key `{key}`: missing")
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            raise BadConfig(f"config key `{key}`: expected {what}, got {value!r}")
        return value

    def int(self, key, default=_MISSING, minimum=None, maximum=None):
        """An integer, optionally checked against inclusive bounds."""
        value = self._get(key, (int,), "an integer", default)
        if minimum is not None and value < minimum:
            raise BadConfig(f"config key `{key}`: must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise BadConfig(f"config key `{key}`: must be at most {maximum}, got {value}")
        return value

    def float(self, key, default=_MISSING):
        """A number (an integer is accepted too)."""
        return float(self._get(key, (int, float), "a number", default))

    def str(self, key, default=_MISSING):
        """A string."""
        return self._get(key, (str,), "a string", default)

    def bool(self, key, default=_MISSING):
        """A boolean."""
        return self._get(key, (bool,), "true or false", default)
