"""The golden cases of the math grader: (response, ground truth) pairs spanning answer formats,
response shapes and hostile answers. Shared by record_golden.py (GEM's verdicts) and the
benchmark. Each case is (group, response, ground truth); a ground truth is a string, a number
or a list, as dataset rows hold them."""

# (answer as boxed, ground truth) per answer format.
FORMATS = {
    "fraction": [
        ("\\frac{1}{2}", "\\frac12"), ("1/2", "\\frac{1}{2}"), ("0.5", "\\frac{1}{2}"),
        ("\\dfrac{3}{4}", "\\frac{3}{4}"), ("2/4", "\\frac{1}{2}"), ("\\frac{2}{4}", "\\frac{1}{2}"),
        ("-\\frac{1}{3}", "-1/3"), ("\\frac{-1}{3}", "-\\frac{1}{3}"), ("3/4", "0.75"),
        ("0.33", "\\frac{1}{3}"), ("0.3333", "\\frac13"), ("\\tfrac{5}{6}", "5/6"),
        ("\\frac{10}{3}", "3\\frac{1}{3}"), ("\\frac{7}{8}", "\\frac{8}{7}"), ("\\frac{a}{b}", "a/b"),
        ("\\frac{x+1}{2}", "\\frac{1+x}{2}"), ("\\frac{6}{4}", "\\frac{3}{2}"), ("1.5", "\\frac{3}{2}"),
    ],
    "decimal": [
        ("3.14", "3.14"), ("3.140", "3.14"), ("3.1", "3.14"), ("0.1", "1/10"), (".5", "0.5"),
        ("1.0", "1"), ("2.50", "2.5"), ("1e-3", "0.001"), ("1.5\\times10^3", "1500"),
        ("0.000001", "10^{-6}"), ("2.71828", "e"), ("-0.25", "-\\frac14"), ("12.0", "12"),
        ("0.142857", "\\frac{1}{7}"), ("100.5", "100.50"),
    ],
    "radical": [
        ("2\\sqrt{2}", "\\sqrt{8}"), ("\\sqrt{2}/2", "\\frac{\\sqrt{2}}{2}"), ("\\sqrt2", "\\sqrt{2}"),
        ("\\frac{1}{\\sqrt{2}}", "\\frac{\\sqrt{2}}{2}"), ("3\\sqrt{3}", "\\sqrt{27}"),
        ("\\sqrt{3}", "1.732"), ("2+\\sqrt{3}", "\\sqrt{3}+2"), ("\\sqrt[3]{8}", "2"),
        ("4\\sqrt{2}", "\\sqrt{32}"), ("\\sqrt{5}", "\\sqrt{6}"), ("\\frac{\\sqrt{3}}{3}", "\\frac{1}{\\sqrt3}"),
        ("5\\sqrt{2}-1", "-1+5\\sqrt2"),
    ],
    "pi": [
        ("\\pi", "\\pi"), ("2\\pi", "2 \\pi"), ("\\frac{\\pi}{2}", "\\pi/2"), ("3.14159", "\\pi"),
        ("\\pi r^2", "\\pi r^2"), ("4\\pi", "12.566"), ("\\frac{3\\pi}{4}", "\\frac34\\pi"),
        ("180^\\circ", "\\pi"), ("16\\pi", "16 \\pi"), ("\\pi/3", "\\frac{\\pi}{6}"),
        ("36\\pi \\text{ cm}^2", "36\\pi"), ("2\\pi - 4", "2(\\pi-2)"),
    ],
    "degree": [
        ("30^\\circ", "30"), ("30^{\\circ}", "30"), ("30 degrees", "30"), ("30°", "30"),
        ("45", "45^\\circ"), ("\\frac{\\pi}{6}", "30^\\circ"), ("120^\\circ", "120^\\circ"),
        ("60^\\circ", "120"), ("90 \\text{ degrees}", "90"),
    ],
    "percent": [
        ("25\\%", "25"), ("25%", "25"), ("0.25", "25\\%"), ("25 percent", "25"),
        ("12.5\\%", "12.5"), ("50\\%", "\\frac12"), ("33\\frac{1}{3}\\%", "33\\frac13"), ("20", "20\\%"),
    ],
    "thousands": [
        ("1,000", "1000"), ("1,000,000", "1000000"), ("10{,}000", "10000"), ("1\\,000", "1000"),
        ("1 000", "1000"), ("1,00", "100"), ("12,345.67", "12345.67"), ("1,234", "1234"),
        ("123,456,789", "123456789"), ("1,000", "1"),
    ],
    "interval": [
        ("(1, 2]", "(1,2]"), ("[1,2)", "(1,2]"), ("(-\\infty, 3)", "(-\\infty,3)"),
        ("(-\\infty,3]\\cup[4,\\infty)", "(-\\infty, 3] \\cup [4, \\infty)"),
        ("x>2", "(2,\\infty)"), ("[0,1]", "[0, 1]"), ("(0,1)", "[0,1]"),
        ("(-\\infty, -2) \\cup (2, \\infty)", "(-\\infty,-2)\\cup(2,\\infty)"),
        ("[-1, \\frac{1}{2}]", "[-1, 0.5]"), ("x \\in (0, 5)", "(0,5)"), ("(2, \\infty)", "(2,\\infty)"),
    ],
    "tuple": [
        ("(3, -1)", "(3,-1)"), ("(1,2,3)", "(1, 2, 3)"), ("(2,1)", "(1,2)"), ("(1/2, 3)", "(\\frac12, 3)"),
        ("3, 4", "(3,4)"), ("(0.5,1)", "(\\frac{1}{2},1)"), ("(1, 2)", "(1, 2, 3)"),
        ("\\left( 2, \\frac{\\pi}{3} \\right)", "(2,\\frac{\\pi}{3})"), ("(-2, 5)", "(-2,5)"),
    ],
    "set": [
        ("\\{1,2,3\\}", "\\{1,2,3\\}"), ("\\{3,2,1\\}", "\\{1,2,3\\}"), ("1,2,3", "\\{1,2,3\\}"),
        ("\\{1,2\\}", "\\{1,2,3\\}"), ("2, -2", "-2, 2"), ("\\pm 2", "2, -2"), ("-3, 3", "3,-3"),
        ("\\{\\}", "\\emptyset"), ("1, 2", "1,2"), ("x = 1, 2", "1, 2"),
    ],
    "matrix": [
        ("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}", "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}"),
        ("\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}", "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}"),
        ("\\begin{pmatrix} 1 & 2 \\\\ 3 & 5 \\end{pmatrix}", "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}"),
        ("\\begin{pmatrix} 1/2 \\\\ 3 \\end{pmatrix}", "\\begin{pmatrix} 0.5 \\\\ 3 \\end{pmatrix}"),
        ("\\begin{pmatrix} -1 \\\\ 2 \\end{pmatrix}", "\\begin{pmatrix}-1\\\\2\\end{pmatrix}"),
        ("\\left(\\begin{array}{cc} 0 & 1 \\\\ 1 & 0 \\end{array}\\right)", "\\begin{pmatrix}0&1\\\\1&0\\end{pmatrix}"),
        ("\\begin{pmatrix} 2 \\\\ 1 \\end{pmatrix}", "\\begin{pmatrix}1\\\\2\\end{pmatrix}"),
        ("\\begin{pmatrix} \\frac{1}{3} & 0 \\\\ 0 & 1 \\end{pmatrix}", "\\begin{pmatrix} 1/3 & 0 \\\\ 0 & 1 \\end{pmatrix}"),
    ],
    "equation": [
        ("x=3", "3"), ("x = 3", "3"), ("y=2x+1", "2x+1"), ("3", "x=3"), ("x=3", "x=3"), ("k=5", "5"),
        ("a=1, b=2", "(1,2)"), ("x^2+y^2=1", "y^2+x^2=1"), ("y = -x + 4", "y=4-x"),
        ("x=4", "3"), ("n = 10", "10"), ("y=\\frac{1}{2}x", "y=0.5x"), ("2x+3y=6", "3y+2x=6"),
        ("f(x)=x^2", "x^2"),
    ],
    "text": [
        ("\\text{Monday}", "Monday"), ("Monday", "\\text{Monday}"), ("\\text{yes}", "yes"),
        ("No", "no"), ("\\text{even}", "\\text{odd}"), ("\\textbf{(C)}", "C"), ("Tuesday", "Monday"),
        ("\\text{Both}", "both"), ("\\text{circle}", "\\text{(C) circle}"), ("infinitely many", "\\infty"),
    ],
    "choice": [
        ("C", "C"), ("(C)", "C"), ("\\text{(C)}", "C"), ("C", "D"), ("\\textbf{(B) }5", "B"),
        ("A", "(A)"), ("\\mathrm{(E)}", "E"), ("B", "\\text{(B)}"), ("(D) 12", "D"), ("d", "D"),
    ],
    "unit": [
        ("5\\text{ cm}", "5"), ("5 cm", "5"), ("10 \\text{meters}", "10"), ("3 hours", "3"),
        ("60 mph", "60"), ("5\\text{ cm}^2", "5"), ("12 inches", "12"), ("4\\mbox{ units}", "4"),
        ("7 \\text{ feet}", "7"), ("2 \\text{ km}", "2000"), ("15 minutes", "15"), ("9 \\text{ sq units}", "9"),
        ("3 \\text{ apples}", "3"), ("20 \\text{ students}", "20"),
    ],
    "dollar": [
        ("\\$18.90", "18.90"), ("\\$18.90", "18.9"), ("18.90 dollars", "18.90"), ("\\$5", "5"),
        ("$5$", "5"), ("\\$1,200", "1200"), ("\\$0.50", "0.5"), ("\\$ 7", "7"), ("\\$42.00", "42"),
        ("5 cents", "0.05"),
    ],
    "mixed": [
        ("2\\frac{1}{3}", "\\frac{7}{3}"), ("2 1/3", "7/3"), ("7/3", "2\\frac13"), ("1\\frac{1}{2}", "1.5"),
        ("-1\\frac{1}{2}", "-\\frac{3}{2}"), ("3 \\frac{3}{4}", "3.75"), ("5\\tfrac{1}{2}", "5.5"),
    ],
    "expression": [
        ("x^2-1", "(x-1)(x+1)"), ("2x", "x+x"), ("a+b", "b+a"), ("\\frac{x}{2}", "x/2"),
        ("e^{i\\pi}", "-1"), ("\\log_2 8", "3"), ("10!", "3628800"), ("\\binom{5}{2}", "10"),
        ("i", "\\sqrt{-1}"), ("3+4i", "4i+3"), ("\\infty", "\\infty"), ("-\\infty", "\\infty"),
        ("\\emptyset", "\\varnothing"), ("\\sin 30^\\circ", "\\frac12"),
        ("6.02\\times10^{23}", "6.02 \\times 10^{23}"), ("2^{10}", "1024"), ("1024", "2^{10}"),
        ("5^3", "125"), ("100", "10^2"), ("x^2+2x+1", "(x+1)^2"), ("\\ln e", "1"),
        ("\\cos \\pi", "-1"), ("2\\cdot 3", "6"), ("(x+1)^2", "x^2+2x+1"), ("\\frac{d}{dx}x^2", "2x"),
        ("3 million", "3000000"), ("\\sqrt{x^2}", "|x|"), ("\\lfloor 2.5 \\rfloor", "2"),
        ("\\tan 45^\\circ", "1"), ("-(-3)", "3"), ("2^{-1}", "\\frac{1}{2}"), ("1/0", "\\infty"),
        ("0", "0"), ("-0", "0"), ("+5", "5"), ("05", "5"),
    ],
    "integer": [
        ("42", "42"), ("42", "43"), ("42.0", "42"), ("-7", "-7"), ("7", "-7"), ("1000000", "10^6"),
        ("17", "17.0"), ("4", "four"), ("\\text{four}", "4"), ("0042", "42"), ("2023", "2,023"),
        ("3", "3.5"),
    ],
}

# Ground truths as dataset rows hold them: numbers and lists, not only strings.
NON_STRING_TRUTHS = [
    ("42", 42), ("0.5", 0.5), ("\\frac12", 0.5), ("3", 3.0), ("-2", -2), ("18", [18, "eighteen"]),
    ("x=3", ["3", "x=3"]), ("7", ["6", "8"]), ("1/4", ["0.25"]), ("\\text{B}", ["A", "B"]),
]

# Response shapes around an answer and its ground truth.
def shapes(answer, truth):
    return [
        ("no box", f"The answer is {answer}.", truth),
        ("several boxes, last right", f"First \\boxed{{7}}, then fixed: \\boxed{{{answer}}}.", truth),
        ("several boxes, last wrong", f"I get \\boxed{{{answer}}}, no wait: \\boxed{{wrong}}", truth),
        ("fbox", f"\\fbox{{{answer}}}", truth),
        ("empty box", "\\boxed{}", truth),
        ("huge prefix", "Let me think step by step. " * 3000 + f"\\boxed{{{answer}}}", truth),
        ("unbalanced box", f"\\boxed{{{answer}", truth),
        ("space before brace", f"\\boxed {{{answer}}}", truth),
        ("think then box", f"<think>maybe \\boxed{{1}}</think> So \\boxed{{{answer}}}", truth),
        ("boxed truth", f"\\boxed{{{answer}}}", f"\\boxed{{{truth}}}"),
        ("dollars around box", f"$\\boxed{{{answer}}}$", truth),
        ("boxed in text", f"Final: \\boxed{{\\text{{{answer}}}}}", truth),
    ]

SHAPED = [("12", "12"), ("\\frac{1}{2}", "0.5"), ("(1,2)", "(1, 2)"), ("C", "C")]

# Answers that make a careless grader hang, recurse or allocate without end.
HOSTILE = [
    ("9^{9^{9^{9}}}", "1"), ("9**9**9**9", "1"), ("2^2^2^2^2^2", "0"), ("10^{10^{10}}", "1"),
    ("(10^10)^(10^10)", "2"), ("9^9^9", "1"), ("10**10**10", "1"), ("2**(2**40)", "4"),
    ("1" * 5000, "1"), ("x+" * 2500 + "x", "x"), ("ab" * 2500, "ab"), ("\\frac{1}{2}" * 450, "0.5"),
    ("9" * 5000, "9" * 5000), ("(" * 500 + "1" + ")" * 500, "1"), ("{" * 1000 + "1" + "}" * 1000, "1"),
    ("\\sqrt{" * 300 + "2" + "}" * 300, "2"), ("\\frac{1}{" * 200 + "2" + "}" * 200, "2"),
    ("100000!", "1"), ("(10^6)!", "1"), ("\\Gamma(10^9)", "1"), ("99999999999!", "1"),
    ("factorial(10**8)", "1"), ("10^{1000000}", "1"), ("1e1000000", "1"), ("(2^{64})!", "0"),
    ("__import__('os').system('ls')", "0"), ("exec('while True: pass')", "0"),
    ("x" * 5000, "x"), ("\\left(" * 300 + "x" + "\\right)" * 300, "x"), ("1+" * 2000 + "1", "2001"),
    ("a^{b^{c^{d}}}", "1"), ("\\prod_{k=1}^{10^9} k", "1"), ("\\sum_{n=1}^{10^{12}} n", "1"),
    ("2^{2^{2^{2^{2}}}}", "2"), ("10^(10^(10^10))", "1"),
]


def all_cases():
    """Every case as (group, response, ground truth)."""
    cases = []
    for group, pairs in FORMATS.items():
        for answer, truth in pairs:
            cases.append((group, f"So the final answer is $\\boxed{{{answer}}}$.", truth))
    for answer, truth in NON_STRING_TRUTHS:
        cases.append(("non-string truth", f"\\boxed{{{answer}}}", truth))
    for answer, truth in SHAPED:
        for shape, response, shaped_truth in shapes(answer, truth):
            cases.append((f"shape: {shape}", response, shaped_truth))
    for answer, truth in HOSTILE:
        cases.append(("hostile", f"\\boxed{{{answer}}}", truth))
    return cases
