"""Command line front end: converts each argument in the other direction."""

import sys

from .errors import NumeralError
from .roman import from_roman, to_roman


def convert(token):
    token = token.strip()
    if token.isdigit():
        return to_roman(int(token))
    return str(from_roman(token))


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    lines = []
    for token in args:
        try:
            lines.append(f"{token} = {convert(token)}")
        except NumeralError as exc:
            lines.append(f"{token}: error: {exc}")
    output = "\n".join(lines)
    print(output)
    return output


if __name__ == "__main__":
    main()
