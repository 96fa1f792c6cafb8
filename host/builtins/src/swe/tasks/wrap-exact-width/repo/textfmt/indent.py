"""Indentation helpers."""


def indent(text: str, prefix: str = "    ") -> str:
    """Prefix every non-blank line."""
    return "\n".join(prefix + line if line.strip() else line for line in text.split("\n"))


def dedent(text: str) -> str:
    """Remove the longest common leading whitespace of the non-blank lines."""
    lines = text.split("\n")
    margins = [len(l) - len(l.lstrip()) for l in lines if l.strip()]
    cut = min(margins) if margins else 0
    return "\n".join(l[cut:] if l.strip() else l.strip() for l in lines)
