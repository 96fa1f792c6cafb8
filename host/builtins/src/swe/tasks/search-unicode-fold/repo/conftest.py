"""Test configuration: makes the package importable from the repository root."""
