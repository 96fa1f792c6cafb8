"""Normalisation of terms for matching."""

import unicodedata


def strip_accents(text: str) -> str:
    """Remove combining marks after compatibility decomposition."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def normalize_term(term: str) -> str:
    """The form under which a term is indexed and searched.

    Case differences and accents are ignored.
    """
    return strip_accents(term).lower()
