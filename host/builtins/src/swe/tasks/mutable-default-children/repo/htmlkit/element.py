"""The :class:`Element` tree node."""

from typing import Dict, List, Optional, Union

VOID_ELEMENTS = frozenset({"br", "hr", "img", "input", "link", "meta"})

Child = Union["Element", str]


class Element:
    """An HTML element with attributes and children (elements or text)."""

    def __init__(self, tag: str, attrs: Dict[str, object] = {}, children: List[Child] = []):
        if not tag.isalnum():
            raise ValueError(f"invalid tag name {tag!r}")
        self.tag = tag.lower()
        self.attrs = attrs
        self.children = children
        if self.void and self.children:
            raise ValueError(f"<{self.tag}> cannot have children")

    @property
    def void(self) -> bool:
        return self.tag in VOID_ELEMENTS

    def append(self, child: Child) -> "Element":
        if self.void:
            raise ValueError(f"<{self.tag}> cannot have children")
        self.children.append(child)
        return self

    def extend(self, children) -> "Element":
        for child in children:
            self.append(child)
        return self

    def set(self, name: str, value: object = True) -> "Element":
        self.attrs[name] = value
        return self

    def get(self, name: str, default: Optional[object] = None) -> Optional[object]:
        return self.attrs.get(name, default)

    def add_class(self, name: str) -> "Element":
        classes = str(self.attrs.get("class", "")).split()
        if name not in classes:
            classes.append(name)
        self.attrs["class"] = " ".join(classes)
        return self

    def __repr__(self) -> str:
        return f"<Element {self.tag} attrs={self.attrs!r} children={len(self.children)}>"
