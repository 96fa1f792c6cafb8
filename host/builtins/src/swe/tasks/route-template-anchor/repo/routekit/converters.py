"""Path parameter converters."""

from urllib.parse import quote


class Converter:
    regex = r"[^/]+"

    def to_python(self, value: str):
        return value

    def to_url(self, value) -> str:
        return quote(str(value), safe="")


class IntConverter(Converter):
    regex = r"\d+"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"expected a non-negative int, got {value!r}")
        return str(value)


class SlugConverter(Converter):
    regex = r"[a-z0-9]+(?:-[a-z0-9]+)*"


class PathConverter(Converter):
    regex = r".+"

    def to_url(self, value) -> str:
        return quote(str(value), safe="/")


CONVERTERS = {
    "str": Converter(),
    "int": IntConverter(),
    "slug": SlugConverter(),
    "path": PathConverter(),
}
