"""Login sessions."""

import hashlib
import itertools
from dataclasses import dataclass
from typing import Callable, Optional

from .cache import TTLCache


@dataclass(frozen=True)
class Session:
    id: str
    user: str


class SessionManager:
    def __init__(self, ttl: float, clock: Callable[[], float], secret: str = "sessions") -> None:
        self._cache = TTLCache(ttl, clock)
        self._counter = itertools.count(1)
        self._secret = secret

    def _new_id(self, user: str) -> str:
        raw = f"{self._secret}:{user}:{next(self._counter)}".encode("utf-8")
        return hashlib.sha256(raw).hexdigest()[:32]

    def login(self, user: str) -> Session:
        session = Session(self._new_id(user), user)
        self._cache.set(session.id, session)
        return session

    def lookup(self, session_id: str) -> Optional[Session]:
        session = self._cache.get(session_id)
        if session is not None:
            self._cache.touch(session_id)
        return session

    def logout(self, session_id: str) -> None:
        self._cache.delete(session_id)

    def cleanup(self) -> int:
        return self._cache.expire()

    def active(self) -> int:
        return len(self._cache)
