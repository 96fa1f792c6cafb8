"""Serialising elements to HTML text."""

from .element import Element
from .escape import escape_attr, escape_text


def render_attrs(attrs) -> str:
    out = []
    for name in sorted(attrs):
        value = attrs[name]
        if value is False or value is None:
            continue
        if value is True:
            out.append(f" {name}")
        else:
            out.append(f' {name}="{escape_attr(str(value))}"')
    return "".join(out)


def render(node) -> str:
    if isinstance(node, str):
        return escape_text(node)
    if not isinstance(node, Element):
        raise TypeError(f"cannot render {type(node).__name__}")
    opening = f"<{node.tag}{render_attrs(node.attrs)}>"
    if node.void:
        return opening
    inner = "".join(render(child) for child in node.children)
    return f"{opening}{inner}</{node.tag}>"
