"""Shared by every door's tests: ``servers`` (geode serve, the model server) is importable."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
