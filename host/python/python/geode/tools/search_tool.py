"""GEM's ``SearchTool`` (``gem.tools.search_tool``) on the host: the first
``<search>...</search>`` of an action is searched, and the passages come back as
``\\n\\n<information>Doc 1(Title: ...) ...</information>\\n\\n``. It searches a local BM25 index
(the corpus shipped with geode by default, or ``corpus``: a JSONL file in GEM's layout), or
GEM's retrieval server at ``search_url`` (or ``SEARCH_URL`` from the environment, read when the
tool is made). The host makes every request, with ``timeout``."""

from typing import Optional, Tuple

from geode.tools.native_tool import NativeTool


class SearchTool(NativeTool):
    """``tool:search``. ``num_workers`` is accepted for GEM scripts and unused."""

    tool_type = "search"

    def __init__(self, num_workers: int = 1, search_url: Optional[str] = None, topk: int = 3,
                 timeout: float = 5, corpus: Optional[str] = None):
        config = {"topk": topk, "timeout": timeout}
        if search_url:
            config["search_url"] = search_url
        if corpus:
            config["corpus"] = corpus
        super().__init__("tool:search", config)
        self.num_workers = num_workers
        self.search_url = search_url
        self.topk = topk
        self.timeout = timeout

    def execute_action(self, action: str) -> Tuple[bool, bool, str, str]:
        """GEM's ``(valid, has_error, observation, parsed_action)``; an action without a
        search block is ``(False, True, "", "")``, as in GEM."""
        parsed, has_error, observation, parsed_action = super().execute_action(action)
        if not parsed:
            return False, True, "", ""
        return parsed, has_error, observation, parsed_action
