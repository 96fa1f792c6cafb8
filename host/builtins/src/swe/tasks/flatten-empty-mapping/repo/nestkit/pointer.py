"""RFC 6901 JSON pointers."""

from typing import Any, List


class PointerError(LookupError):
    """The pointer does not resolve."""


def parse_pointer(pointer: str) -> List[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PointerError(f"pointer must start with '/': {pointer!r}")
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer[1:].split("/")]


def resolve(data: Any, pointer: str) -> Any:
    node = data
    for token in parse_pointer(pointer):
        if isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                raise PointerError(f"bad list index {token!r} in {pointer!r}")
            node = node[int(token)]
        elif isinstance(node, dict):
            if token not in node:
                raise PointerError(f"missing key {token!r} in {pointer!r}")
            node = node[token]
        else:
            raise PointerError(f"cannot descend into {type(node).__name__} at {token!r}")
    return node
