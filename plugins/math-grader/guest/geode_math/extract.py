"""Finding the graded answer in a response: the last `\\boxed{...}`, braces balanced."""

BOXED = "\\boxed"
FBOX = "\\fbox"


def last_boxed(text):
    """The last `\\boxed...{...}` (or, without any `\\boxed`, the last `\\fbox...`) of `text`,
    from the command to the brace that closes the first one opened after it; None when the
    braces never balance."""
    start = text.rfind(BOXED)
    if start < 0:
        start = text.rfind(FBOX)
        if start < 0:
            return None
    depth = 0
    for position in range(start, len(text)):
        char = text[position]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start : position + 1]
    return None


def _unbox(command):
    """The inside of `\\boxed{...}`; None for anything else (`\\fbox{}`, `\\boxed {}`)."""
    opening = BOXED + "{"
    if command is None or not command.startswith(opening) or not command.endswith("}"):
        return None
    if len(command) < len(opening) + 1:
        return None
    return command[len(opening) : -1]


def extract_answer(text):
    """The answer a response gives: the inside of its last `\\boxed{}`, or None when the
    response has no `\\boxed` at all or its last one is unbalanced or not followed by `{`."""
    if BOXED not in text:
        return None
    return _unbox(last_boxed(text))
