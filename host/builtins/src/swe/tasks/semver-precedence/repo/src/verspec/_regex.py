"""Regular expressions for versions and specifiers."""

import re

_NUM = r"0|[1-9]\d*"
_IDENT = r"[0-9A-Za-z-]+"

VERSION_RE = re.compile(
    rf"(?P<major>{_NUM})\.(?P<minor>{_NUM})\.(?P<patch>{_NUM})"
    rf"(?:-(?P<prerelease>{_IDENT}(?:\.{_IDENT})*))?"
    rf"(?:\+(?P<build>{_IDENT}(?:\.{_IDENT})*))?"
)

# A relaxed form used by specifiers: minor and patch may be omitted.
PARTIAL_RE = re.compile(
    rf"(?P<major>{_NUM})(?:\.(?P<minor>{_NUM}))?(?:\.(?P<patch>{_NUM}))?"
    rf"(?:-(?P<prerelease>{_IDENT}(?:\.{_IDENT})*))?"
)

SPECIFIER_RE = re.compile(r"\s*(?P<op>==|!=|>=|<=|>|<)?\s*(?P<version>\S+)\s*")
