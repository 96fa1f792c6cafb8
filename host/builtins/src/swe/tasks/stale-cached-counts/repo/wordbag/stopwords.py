"""A small English stop word list."""

STOPWORDS = frozenset(
    """a an and are as at be by for from has in is it of on or that the to was
    were will with""".split()
)
