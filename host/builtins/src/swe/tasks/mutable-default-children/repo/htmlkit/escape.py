"""HTML escaping."""

_TEXT = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ATTR = dict(_TEXT, **{'"': "&quot;"})


def escape_text(value: str) -> str:
    return "".join(_TEXT.get(c, c) for c in value)


def escape_attr(value: str) -> str:
    return "".join(_ATTR.get(c, c) for c in value)
