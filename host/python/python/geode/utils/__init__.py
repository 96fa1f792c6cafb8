"""Helpers, as in ``gem.utils``: answer parsing, GEM's constants, episode printing, seeding,
exact-match scoring (``qa_em``) and running programs in the sandbox (``sandbox``)."""
