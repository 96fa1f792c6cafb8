"""Topological ordering (Kahn's algorithm)."""

from typing import Dict, List

from .cycles import find_cycle
from .errors import CycleError
from .graph import Graph


def build_levels(graph: Graph) -> List[List[str]]:
    """Group tasks into levels; every task only depends on earlier levels.

    Tasks within a level are sorted by name. Raises :class:`CycleError`
    when some tasks can never be scheduled.
    """
    remaining: Dict[str, int] = {t: len(graph.dependencies(t)) for t in graph.tasks}
    levels: List[List[str]] = []
    ready = sorted(t for t, n in remaining.items() if n == 0)
    while ready:
        levels.append(ready)
        following = set()
        for task in ready:
            del remaining[task]
            for dependent in graph.dependents(task):
                remaining[dependent] -= 1
                if remaining[dependent] == 0:
                    following.add(dependent)
        ready = sorted(following)
    if not levels and remaining:
        raise CycleError(find_cycle(graph, list(remaining)))
    return levels


def build_order(graph: Graph) -> List[str]:
    """A flat execution order, level by level."""
    return [task for level in build_levels(graph) for task in level]
