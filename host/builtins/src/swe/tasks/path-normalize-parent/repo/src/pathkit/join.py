"""Joining and splitting."""

from .normalize import SEP, is_absolute, normalize


def join(*parts: str) -> str:
    """Join path parts; an absolute part discards everything before it."""
    result = ""
    for part in parts:
        if not part:
            continue
        if is_absolute(part) or not result:
            result = part
        else:
            result = result.rstrip(SEP) + SEP + part
    return normalize(result)


def split_ext(path: str):
    """``("dir/name", ".ext")``; dot files like ``.bashrc`` have no extension."""
    head, _, name = path.rpartition(SEP)
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        return path, ""
    prefix = head + SEP if head or path.startswith(SEP) else ""
    return prefix + stem, "." + ext
