"""Navigation links for paginated responses."""

from typing import Dict, Mapping, Optional
from urllib.parse import urlencode


def _url(path: str, query: Mapping[str, str], page: int, per_page: int) -> str:
    params = {k: v for k, v in query.items() if k not in ("page", "per_page")}
    params["page"] = str(page)
    params["per_page"] = str(per_page)
    return f"{path}?{urlencode(sorted(params.items()))}"


def page_links(
    path: str, query: Mapping[str, str], page: int, per_page: int, total: int
) -> Dict[str, Optional[str]]:
    """``self``/``first``/``last``/``next``/``prev`` links for one page."""
    last = max(1, total // per_page)
    return {
        "self": _url(path, query, page, per_page),
        "first": _url(path, query, 1, per_page),
        "last": _url(path, query, last, per_page),
        "next": _url(path, query, page + 1, per_page) if page < last else None,
        "prev": _url(path, query, page - 1, per_page) if page > 1 else None,
    }
