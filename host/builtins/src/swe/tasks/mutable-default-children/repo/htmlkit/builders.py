"""Shorthand constructors; ``class_`` and ``for_`` map to ``class``/``for``."""

from typing import Iterable

from .element import Element


def _attrs(kwargs):
    return {k.rstrip("_"): v for k, v in kwargs.items()}


def tag(name: str, *children, **attrs) -> Element:
    return Element(name, _attrs(attrs), list(children))


def div(*children, **attrs) -> Element:
    return tag("div", *children, **attrs)


def p(*children, **attrs) -> Element:
    return tag("p", *children, **attrs)


def a(text: str, href: str, **attrs) -> Element:
    return tag("a", text, href=href, **attrs)


def ul(items: Iterable, **attrs) -> Element:
    return tag("ul", *(tag("li", item) for item in items), **attrs)


def img(src: str, **attrs) -> Element:
    element = Element("img").set("src", src)
    for name, value in _attrs(attrs).items():
        element.set(name, value)
    return element
