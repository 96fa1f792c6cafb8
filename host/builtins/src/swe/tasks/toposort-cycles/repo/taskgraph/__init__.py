"""Dependency ordering for build tasks."""

from .errors import CycleError, GraphError
from .graph import Graph
from .loader import load_graph
from .toposort import build_levels, build_order

__all__ = ["CycleError", "Graph", "GraphError", "build_levels", "build_order", "load_graph"]
