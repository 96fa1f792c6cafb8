"""Writes the small math samples geode ships (one JSONL file per GEM math dataset), in each
dataset's layout: `problem` and `answer`, the keys GEM's MathEnv reads. The problems are written
for geode (see DATA.md); rerun after editing: `python3 generate.py`."""

import json
from pathlib import Path

SAMPLES = {
    # axon-rl/GSM-8k: grade-school word problems, integer answers.
    "gsm8k": [
        ("Mia buys 3 notebooks at $4 each and a pen for $2. How many dollars does she spend?", "14"),
        ("A farm has 12 cows and twice as many sheep. How many animals are there in total?", "36"),
        ("Leo reads 15 pages a day. How many days does he need for a 120-page book?", "8"),
        ("A baker makes 48 rolls and sells three quarters of them. How many rolls are left?", "12"),
        ("Tom had 250 marbles, gave 75 to Ana and then bought 40 more. How many does he have?", "215"),
        ("A train travels 60 miles per hour for 2.5 hours. How many miles does it travel?", "150"),
    ],
    # axon-rl/ASDIV-2k: short arithmetic word problems.
    "asdiv2k": [
        ("There are 7 red balloons and 5 blue balloons. How many balloons are there?", "12"),
        ("A box holds 6 eggs. How many eggs are in 9 boxes?", "54"),
        ("Sara had 20 stickers and used 8. How many stickers are left?", "12"),
        ("A rope 45 m long is cut into 5 equal pieces. How long is each piece in metres?", "9"),
        ("Ben is 4 years older than Eva, who is 9. How old is Ben?", "13"),
    ],
    # axon-rl/MATH-12k: competition problems, LaTeX answers.
    "math12k": [
        ("Simplify $\\frac{18}{24}$.", "\\frac{3}{4}"),
        ("What is the sum of the roots of $x^2 - 7x + 10 = 0$?", "7"),
        ("Find the distance between $(1, 2)$ and $(4, 6)$.", "5"),
        ("Compute $\\sqrt{50}$ in simplest radical form.", "5\\sqrt{2}"),
        ("Solve for $x$: $3x + 5 = 20$.", "5"),
        ("What is the interior angle of a regular hexagon, in degrees?", "120"),
    ],
    # axon-rl/MATH-lvl3to5-8k: MATH levels 3 to 5.
    "math8k_3to5": [
        ("Find all real $x$ with $x^2 = 9$. Give them separated by commas.", "-3, 3"),
        ("For which $x$ is $2x - 3 > 5$? Answer in interval notation.", "(4, \\infty)"),
        ("What is the area of a circle of radius 3?", "9\\pi"),
        ("Find the ordered pair $(x, y)$ with $x + y = 5$ and $x - y = 1$.", "(3, 2)"),
        ("How many positive divisors does 36 have?", "9"),
    ],
    # axon-rl/ORZ-57k: mixed-source problems.
    "orz57k": [
        ("What is $2^{10}$?", "1024"),
        ("Evaluate $\\log_3 81$.", "4"),
        ("What is the least common multiple of 12 and 18?", "36"),
        ("Express $0.375$ as a common fraction.", "\\frac{3}{8}"),
        ("What is $\\binom{6}{2}$?", "15"),
    ],
    # axon-rl/DeepScaleR-40K: olympiad-style problems.
    "deepscaler40k": [
        ("Find the remainder when $2^{20}$ is divided by 7.", "4"),
        ("What is the sum of the first 100 positive integers?", "5050"),
        ("Find $\\cos 60^\\circ$.", "\\frac{1}{2}"),
        ("How many ways can 5 books be arranged on a shelf?", "120"),
        ("Find the largest prime factor of 221.", "17"),
    ],
    # axon-rl/math-eval, split aime24: integer answers 0..999.
    "aime24": [
        ("Find the number of positive integers less than 100 that are divisible by 3 or 5.", "46"),
        ("Find the remainder when $7^{100}$ is divided by 1000.", "1"),
        ("Find the number of subsets of $\\{1,2,\\dots,8\\}$ with exactly 3 elements.", "56"),
        ("Let $x + 1/x = 3$. Find $x^3 + 1/x^3$.", "18"),
    ],
    # axon-rl/math-eval, split amc.
    "amc": [
        ("What is the value of $1 + 3 + 5 + \\cdots + 19$?", "100"),
        ("A square has perimeter 28. What is its area?", "49"),
        ("What is $\\frac{2}{3}$ of $\\frac{9}{4}$?", "\\frac{3}{2}"),
        ("How many primes are less than 30?", "10"),
    ],
    # axon-rl/math-eval, split math (MATH500).
    "math500": [
        ("Convert the point $(0, 3)$ in rectangular coordinates to polar coordinates $(r, \\theta)$.", "\\left( 3, \\frac{\\pi}{2} \\right)"),
        ("Compute $\\begin{pmatrix} 1 & 2 \\\\ 0 & 1 \\end{pmatrix}^2$.", "\\begin{pmatrix} 1 & 4 \\\\ 0 & 1 \\end{pmatrix}"),
        ("What is $\\frac{1}{2} + \\frac{1}{3}$?", "\\frac{5}{6}"),
        ("Which day of the week is 10 days after a Monday?", "\\text{Thursday}"),
    ],
    # axon-rl/math-eval, split minerva: science problems with units.
    "minerva": [
        ("A car accelerates from rest at $2\\,\\mathrm{m/s^2}$ for 5 s. What is its speed in m/s?", "10"),
        ("What is the wavelength in m of a 100 Hz sound wave travelling at 340 m/s?", "3.4"),
        ("A 2 kg mass is lifted 3 m. What is its gain in potential energy in J? Take $g = 10$.", "60"),
        ("Give Avogadro's number to three significant figures.", "6.02 \\times 10^{23}"),
    ],
    # axon-rl/math-eval, split olympiad_bench.
    "olympiadbench": [
        ("Find all positive integers $n$ with $n^2 = 2n$.", "2"),
        ("Find the minimum of $x^2 - 4x + 7$ over the reals.", "3"),
        ("Find the sum of the digits of $10^{5} - 1$.", "45"),
        ("Solve $|x - 2| = 5$. Give all solutions separated by commas.", "-3, 7"),
    ],
}


def main():
    here = Path(__file__).resolve().parent
    for name, rows in SAMPLES.items():
        lines = [json.dumps({"problem": q, "answer": a}, ensure_ascii=False) for q, a in rows]
        (here / f"{name}.jsonl").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
