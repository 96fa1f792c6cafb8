"""Outgoing responses."""

import json
from dataclasses import dataclass, field
from typing import Any, Dict


@dataclass
class Response:
    status: int = 200
    body: Dict[str, Any] = field(default_factory=dict)

    def json(self) -> str:
        return json.dumps(self.body, sort_keys=True)

    @classmethod
    def error(cls, status: int, message: str) -> "Response":
        return cls(status, {"error": {"status": status, "message": message}})
