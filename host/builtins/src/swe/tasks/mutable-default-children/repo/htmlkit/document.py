"""Whole HTML documents."""

from .element import Element
from .render import render


class Document:
    def __init__(self, title: str) -> None:
        self.title = title
        self.head = Element("head", {}, [])
        self.head.append(Element("meta", {"charset": "utf-8"}, []))
        self.head.append(Element("title", {}, [title]))
        self.body = Element("body", {}, [])

    def add(self, child) -> "Document":
        self.body.append(child)
        return self

    def render(self) -> str:
        html = Element("html", {"lang": "en"}, [self.head, self.body])
        return "<!DOCTYPE html>" + render(html)
