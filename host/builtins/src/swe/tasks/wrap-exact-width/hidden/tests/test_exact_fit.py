import textwrap

from textfmt import columns, fill, justify, wrap

SAMPLE = (
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod "
    "tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam"
)


def test_line_of_exact_width_kept():
    assert wrap("aaaa bbbb cccc", 9) == ["aaaa bbbb", "cccc"]
    assert wrap("ab cd", 5) == ["ab cd"]
    assert fill("x y z", 3) == "x y\nz"
    assert columns(["aa bb", "c"], 5, gap=1) == ["aa bb c"]


def test_matches_textwrap_on_sample():
    for width in range(12, 40):
        assert wrap(SAMPLE, width) == textwrap.wrap(SAMPLE, width), width


def test_justify_exact_fit():
    assert justify("aaaa bbbb cccc dd", 9) == ["aaaa bbbb", "cccc dd"]
