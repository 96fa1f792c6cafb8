"""Pretty printing."""


def format_matrix(m) -> str:
    cells = [[str(x) for x in row] for row in m.rows]
    if not cells:
        return "[]"
    widths = [max(len(row[j]) for row in cells) for j in range(len(cells[0]))]
    lines = ["[ " + "  ".join(c.rjust(w) for c, w in zip(row, widths)) + " ]" for row in cells]
    return "\n".join(lines)
