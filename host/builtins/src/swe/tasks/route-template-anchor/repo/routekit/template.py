"""Compiling route templates such as ``/users/<int:user_id>``."""

import re
from typing import Any, Dict, Optional

from .converters import CONVERTERS
from .errors import TemplateError

_PARAM = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>[A-Za-z_]\w*)>")


class Template:
    def __init__(self, text: str) -> None:
        if not text.startswith("/"):
            raise TemplateError(f"template must start with '/': {text!r}")
        self.text = text
        self.converters: Dict[str, Any] = {}
        pieces = []
        pos = 0
        for m in _PARAM.finditer(text):
            pieces.append(re.escape(text[pos : m.start()]))
            kind = m.group("converter") or "str"
            if kind not in CONVERTERS:
                raise TemplateError(f"unknown converter {kind!r} in {text!r}")
            name = m.group("name")
            if name in self.converters:
                raise TemplateError(f"parameter {name!r} used twice in {text!r}")
            self.converters[name] = CONVERTERS[kind]
            pieces.append(f"(?P<{name}>{CONVERTERS[kind].regex})")
            pos = m.end()
        pieces.append(re.escape(text[pos:]))
        self.regex = re.compile("^" + "".join(pieces))

    def match(self, path: str) -> Optional[Dict[str, Any]]:
        """Parameters of ``path`` converted to Python values, or ``None``."""
        m = self.regex.match(path)
        if m is None:
            return None
        try:
            return {k: self.converters[k].to_python(v) for k, v in m.groupdict().items()}
        except ValueError:
            return None

    def build(self, **params: Any) -> str:
        missing = set(self.converters) - set(params)
        if missing:
            raise TemplateError(f"missing parameters for {self.text!r}: {sorted(missing)}")

        def substitute(m):
            name = m.group("name")
            return self.converters[name].to_url(params[name])

        return _PARAM.sub(substitute, self.text)

    def __repr__(self) -> str:
        return f"Template({self.text!r})"
