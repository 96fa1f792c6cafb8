"""Jobs and their results."""

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional


@dataclass
class Job:
    """A unit of work. ``handler`` receives the payload."""

    name: str
    handler: Optional[Callable[[Dict[str, Any]], Any]] = None
    payload: Dict[str, Any] = field(default_factory=dict)
    max_attempts: int = 3
    attempts: int = 0

    def run(self) -> Any:
        self.attempts += 1
        if self.handler is None:
            return None
        return self.handler(self.payload)


@dataclass
class JobResult:
    name: str
    ok: bool
    attempts: int
    value: Any = None
    error: Optional[str] = None
    delays: list = field(default_factory=list)
