"""Relative paths between two locations."""

from .normalize import is_absolute, split


def relative_to(path: str, start: str) -> str:
    """The path that leads from directory ``start`` to ``path``.

    Both must be absolute or both relative.
    """
    if is_absolute(path) != is_absolute(start):
        raise ValueError("cannot mix absolute and relative paths")
    target, base = split(path), split(start)
    common = 0
    while common < min(len(target), len(base)) and target[common] == base[common]:
        common += 1
    ups = [".."] * (len(base) - common)
    rest = ups + target[common:]
    from .join import join

    return join(*rest) if rest else "."
