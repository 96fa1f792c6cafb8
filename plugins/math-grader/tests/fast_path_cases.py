"""Cases at the edges of the grader's shortcuts (`host/builtins/src/math/grader.rs`'s
`host_verdict`, and the guest's skips in `geode_math`): answers that look alike but that GEM may
grade apart, recorded with GEM's verdicts by `record_fast_path.py` into `fast_path.json`.
Each case is (response, ground truths)."""

_PAIRS = [
    # Identical strings: correct by GEM's MATH normalization, whatever they hold.
    ("12", "12"), ("0.5", "0.5"), ("", ""), (" ", " "), ("1,000", "1,000"), ("x", "x"),
    ("\\frac{1}{2}", "\\frac{1}{2}"), ("\\text{(B)}", "\\text{(B)}"), ("3 \\text{ cm}", "3 \\text{ cm}"),
    ("\\sqrt", "\\sqrt"), ("\\frac", "\\frac"), ("\\frac1", "\\frac1"), ("a^{b^{c}}", "a^{b^{c}}"),
    ("\\infty", "\\infty"), ("(1,2]", "(1,2]"), ("\\text{ m}\\text{ s}", "\\text{ m}\\text{ s}"),
    ("1" * 3000, "1" * 3000), ("x+" * 1500 + "x", "x+" * 1500 + "x"), ("9" * 8000, "9" * 8000),
    ("9" * 9000, "9" * 9000),
    # Nearly identical: the shortcut must not apply.
    ("1/2", "0.5"), ("0.5", "1/2"), ("1,000", "1000"), ("1000", "1,000"), ("0042", "42"),
    ("+3", "3"), ("3.0", "3"), ("3", "3.0"), ("3.", "3"), ("-0", "0"), ("05", "5"),
    ("12 ", "12"), (" 12", "12"), ("12", " 12"), ("12\\%", "12"), ("12 cm", "12"),
    ("12 \\text{ cm}", "12"), ("\\$12", "12"), ("12", "\\boxed{12}"), ("\\frac12", "\\frac{1}{2}"),
    ("x", "X"), ("42", "43"), ("7", "-7"), ("1e3", "1000"), ("10^3", "1000"), ("1\\,000", "1000"),
    ("2 \\text{ apples}", "2"), ("5 hours", "5"), ("east", ""), ("3 men", "3"), ("t", ""),
    ("3 degrees", "3"), ("30^\\circ", "30"), ("\\text{Monday}", "Monday"), ("a .", "a ."),
    ("5 m", "5"), ("5m", "5"), ("m", "5"), ("4 sq . m", "4"), ("4 sqm", "4"), ("π r 2", "π r 2"),
    ("\\frac{\\pi}{2} rad", "\\frac{\\pi}{2}"), ("2 inches", "2"), ("2 inch", "2"), ("2 feet", "2"),
    ("\\pi", "pi"), ("\\alpha", "alpha"), ("\\mbox{5}", "5"), ("\\emph{5}", "5"), ("\\textbf{5}", "5"),
    # Plain integers, compared by value on the host.
    ("999999999", "999999998"), ("-999999999", "999999999"), ("999999999", "0999999999"),
    ("100", "1"), ("1", "100"), ("9", "900"), ("00", "0"), ("-00", "0"), ("0", "-0"), ("-007", "-7"),
    ("1000000000", "1000000001"), ("1000000000", "01000000000"), ("12", "12.0"), ("12", "+12"),
    ("1 2", "12"), ("12", "１２"), ("٤٢", "42"), ("25", "25\\%"), ("2", "2^1"),
]

# Responses without a balanced last box, and boxes around the pairs above.
_RESPONSES = [
    ("no box here: 12", ["12"]), ("\\boxed{12", ["12"]), ("\\boxed {12}", ["12"]),
    ("\\fbox{12}", ["12"]), ("\\boxed{12} and \\boxed", ["12"]), ("\\boxed}{12}", ["12"]),
    ("\\boxed{}", [""]), ("\\boxed{}", ["0"]), ("\\boxed{\\boxed{12}}", ["12"]),
    ("\\boxed{12}", ["13", "12"]), ("\\boxed{12}", ["12", "13"]), ("\\boxed{x}", ["\\boxed{x}"]),
    ("\\boxed{0012}", ["13", "12"]), ("\\boxed{12}", ["0012", "13"]), ("\\boxed{12}", ["\\boxed{12}"]),
]


def all_cases():
    """(response, ground truths) of every fast-path case."""
    return [("\\boxed{" + a + "}", [t]) for a, t in _PAIRS] + _RESPONSES
