"""In-memory stores with expiring entries."""

from .cache import TTLCache
from .ratelimit import RateLimiter
from .sessions import Session, SessionManager

__all__ = ["RateLimiter", "Session", "SessionManager", "TTLCache"]
