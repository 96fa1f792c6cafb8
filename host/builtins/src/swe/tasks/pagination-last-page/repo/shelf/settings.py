"""Service wide defaults."""

DEFAULT_PER_PAGE = 10
MAX_PER_PAGE = 50
SORTABLE_FIELDS = ("id", "title", "author", "year")
