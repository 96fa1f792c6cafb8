"""Helpers, as in ``gem.utils``: answer parsing, GEM's constants, episode printing, seeding."""
