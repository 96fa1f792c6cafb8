import sys
import types

import pytest


@pytest.fixture
def geometry(monkeypatch):
    """A small importable module with documented functions."""
    module = types.ModuleType("geometry_helpers")

    def area(width, height=1):
        """Area of a rectangle.

        ``height`` defaults to 1, which gives the length of a segment.
        """
        return width * height

    def perimeter(width, height):
        """Perimeter of a rectangle."""
        return 2 * (width + height)

    def _helper():
        """Not part of the API."""

    module.area = area
    module.perimeter = perimeter
    module._helper = _helper
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module
