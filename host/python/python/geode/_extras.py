"""Optional dependencies: each trainer's door (``geode.openenv``, ``geode.verifiers``,
``geode.skyrl``, ``geode.nemo_gym``, ``geode.trl``) imports its consumer's library through
:func:`require`, so a missing one raises :class:`~geode.errors.MissingExtraError` naming the
extra that installs it, never a bare ``ModuleNotFoundError`` from deep inside."""

import importlib
from types import ModuleType

from geode.errors import MissingExtraError

#: What each extra installs, as pinned in the package's metadata (``pip install 'geode[X]'``).
EXTRAS = {
    "openenv": "openenv>=0.10,<0.11",
    "verifiers": "verifiers>=0.4,<0.5",
    "skyrl": "skyrl-gym>=0.4,<0.5",
    "nemo-gym": "nemo-gym>=0.7,<0.8",
    "trl": "trl>=1.16,<2",
}


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Imports ``module``, or raises ``MissingExtraError`` saying that ``purpose`` needs the
    ``extra`` and how to install it. ``error.name`` is the missing module."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        pin = EXTRAS.get(extra, extra)
        raise MissingExtraError(
            f"{purpose} needs the `{extra}` extra: pip install 'geode[{extra}]' ({pin}); "
            f"importing {module} failed: {error}",
            name=module,
        ) from error
