"""The task graph."""

from typing import Dict, Iterable, List, Set


class Graph:
    """Tasks and the tasks they depend on."""

    def __init__(self) -> None:
        self._deps: Dict[str, Set[str]] = {}

    def add_task(self, name: str, depends_on: Iterable[str] = ()) -> None:
        self._deps.setdefault(name, set())
        for dep in depends_on:
            self.add_dependency(name, dep)

    def add_dependency(self, task: str, dependency: str) -> None:
        self._deps.setdefault(task, set()).add(dependency)
        self._deps.setdefault(dependency, set())

    @property
    def tasks(self) -> List[str]:
        return sorted(self._deps)

    def dependencies(self, task: str) -> List[str]:
        return sorted(self._deps[task])

    def dependents(self, task: str) -> List[str]:
        return sorted(t for t, deps in self._deps.items() if task in deps)

    def __contains__(self, task: str) -> bool:
        return task in self._deps

    def __len__(self) -> int:
        return len(self._deps)
