"""Locating a cycle for error messages."""

from typing import List, Optional

from .graph import Graph


def find_cycle(graph: Graph, among: Optional[List[str]] = None) -> List[str]:
    """Return the tasks of one dependency cycle, or ``[]`` if there is none.

    ``among`` restricts the search to the given tasks (for example the ones
    a topological sort could not place).
    """
    candidates = sorted(among) if among is not None else graph.tasks
    allowed = set(candidates)
    state = {}  # task -> "active" | "done"
    stack: List[str] = []

    def visit(task: str) -> List[str]:
        state[task] = "active"
        stack.append(task)
        for dep in graph.dependencies(task):
            if dep not in allowed:
                continue
            if state.get(dep) == "active":
                return stack[stack.index(dep):]
            if dep not in state:
                found = visit(dep)
                if found:
                    return found
        stack.pop()
        state[task] = "done"
        return []

    for task in candidates:
        if task not in state:
            found = visit(task)
            if found:
                return found
    return []
