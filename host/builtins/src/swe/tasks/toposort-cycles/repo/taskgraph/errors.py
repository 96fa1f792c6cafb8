"""Exceptions."""


class GraphError(Exception):
    """Base class for task graph problems."""


class CycleError(GraphError):
    """The graph contains a dependency cycle."""

    def __init__(self, cycle):
        self.cycle = list(cycle)
        super().__init__("dependency cycle: " + " -> ".join(self.cycle + self.cycle[:1]))
