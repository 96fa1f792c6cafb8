"""Reading task files."""

from .errors import GraphError
from .graph import Graph


def load_graph(text: str) -> Graph:
    """Parse ``name: dep dep`` lines; ``#`` starts a comment."""
    graph = Graph()
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, deps = line.partition(":")
        name = name.strip()
        if not sep or not name or " " in name:
            raise GraphError(f"line {lineno}: expected 'task: deps', got {raw!r}")
        graph.add_task(name, deps.split())
    return graph
