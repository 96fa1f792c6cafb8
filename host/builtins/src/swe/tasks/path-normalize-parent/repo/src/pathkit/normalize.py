"""Lexical normalisation of paths."""

SEP = "/"


def is_absolute(path: str) -> bool:
    return path.startswith(SEP)


def normalize(path: str) -> str:
    """Collapse repeated separators, ``.`` and ``..`` without touching disk.

    ``..`` removes the preceding component. At the root of an absolute path
    it is dropped (``/..`` is ``/``); at the start of a relative path it is
    kept (``../a`` stays ``../a``). The empty path normalises to ``.``.
    """
    if not path:
        return "."
    absolute = is_absolute(path)
    parts = []
    for part in path.split(SEP):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    body = SEP.join(parts)
    if absolute:
        return SEP + body
    return body or "."


def split(path: str):
    """Components of the normalised path (the root of an absolute path is ``/``)."""
    norm = normalize(path)
    if norm == ".":
        return []
    if is_absolute(norm):
        return [SEP] + [p for p in norm.split(SEP) if p]
    return norm.split(SEP)
