# Generates code_sample.jsonl: each problem's expected outputs come from running its reference
# solution with CPython.  Usage: python3 generate.py code_sample.jsonl
import json, random, math, subprocess, sys
random.seed(2025)
problems = []

def add(pid, statement, solution, inputs, tests_as_string=False):
    outputs = []
    for inp in inputs:
        out = subprocess.run([sys.executable, "-c", solution], input=inp, capture_output=True, text=True, check=True).stdout
        outputs.append(out)
    tests = {"inputs": inputs, "outputs": outputs}
    problems.append({"id": pid, "problem": statement, "tests": json.dumps(tests) if tests_as_string else tests})

add("sum-of-two",
"""Sum of two

Read two integers a and b (|a|, |b| <= 10^18) separated by a space and print a + b.

Input: one line with a and b.
Output: one line with the sum.""",
"a, b = map(int, input().split())\nprint(a + b)",
["1 2\n", "-5 5\n", "1000000000000000000 1000000000000000000\n", "0 0\n", "-7 -8\n"])

add("reverse-words",
"""Reverse the words

Read one line of words separated by single spaces and print the words in reverse order, separated by single spaces.

Input: one line of 1 to 1000 words of lowercase letters.
Output: the words in reverse order.""",
"print(' '.join(input().split()[::-1]))",
["hello world\n", "a\n", "the quick brown fox\n", " ".join("w%d" % i for i in range(300)).replace("0","a").replace("1","b").replace("2","c").replace("3","d").replace("4","e").replace("5","f").replace("6","g").replace("7","h").replace("8","i").replace("9","j") + "\n"])

def max_sub_input(n):
    return f"{n}\n" + " ".join(str(random.randint(-1000, 1000)) for _ in range(n)) + "\n"
add("max-subarray",
"""Maximum subarray

Given n integers, print the largest sum of a non-empty contiguous subarray.

Input: the first line holds n (1 <= n <= 5000); the second line holds n integers, each between -1000 and 1000.
Output: one integer.""",
"""import sys
data = sys.stdin.read().split()
n = int(data[0]); best = cur = None
for x in map(int, data[1:1 + n]):
    cur = x if cur is None or cur < 0 else cur + x
    best = cur if best is None else max(best, cur)
print(best)""",
["1\n-5\n", "3\n1 2 3\n", "5\n-2 1 -3 4 -1\n", "4\n-1 -2 -3 -4\n"] + [max_sub_input(n) for n in (10, 20, 30, 50, 80, 100, 200, 500, 1000, 2000, 5000)],
tests_as_string=True)

add("count-primes",
"""Counting primes

Print the number of primes p with p <= N.

Input: one integer N (1 <= N <= 2000000).
Output: one integer.""",
"""n = int(input())
sieve = bytearray([1]) * (n + 1)
sieve[0:2] = b'\\x00\\x00'[: min(2, n + 1)]
for i in range(2, int(n ** 0.5) + 1):
    if sieve[i]:
        sieve[i * i :: i] = bytearray(len(range(i * i, n + 1, i)))
print(sum(sieve))""",
["1\n", "10\n", "100\n", "1000\n", "2000000\n"])

add("balanced-brackets",
"""Balanced brackets

For each of T strings made of the characters ()[]{}, print YES if its brackets are balanced and NO otherwise.

Input: the first line holds T (1 <= T <= 1000); each of the next T lines holds one string of length 1 to 1000.
Output: T lines, YES or NO.""",
"""import sys
lines = sys.stdin.read().split()
pairs = {')': '(', ']': '[', '}': '{'}
for s in lines[1:1 + int(lines[0])]:
    stack = []
    ok = True
    for c in s:
        if c in '([{':
            stack.append(c)
        elif not stack or stack.pop() != pairs[c]:
            ok = False
            break
    print('YES' if ok and not stack else 'NO')""",
["3\n()\n([)]\n{[]}\n", "1\n(\n", "4\n)(\n(((())))\n[]{}()\n{[(])}\n"])

add("gcd-lcm",
"""GCD and LCM

Read two positive integers a and b (1 <= a, b <= 10^12) and print their greatest common divisor and least common multiple, separated by a space.""",
"import math\na, b = map(int, input().split())\ng = math.gcd(a, b)\nprint(g, a // g * b)",
["12 18\n", "7 13\n", "1000000000000 999999999999\n", "1 1\n"])

add("fizzbuzz",
"""FizzBuzz

Print the numbers from 1 to n, one per line, but print Fizz for multiples of 3, Buzz for multiples of 5 and FizzBuzz for multiples of both.

Input: one integer n (1 <= n <= 10000).""",
"""n = int(input())
for i in range(1, n + 1):
    print('FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else 'Buzz' if i % 5 == 0 else i)""",
["1\n", "15\n", "100\n"])

add("grid-paths",
"""Grid paths

A robot starts in the top-left cell of an m x n grid and moves only right or down. Print the number of distinct paths to the bottom-right cell, modulo 1000000007.

Input: one line with m and n (1 <= m, n <= 1000).""",
"""m, n = map(int, input().split())
MOD = 10 ** 9 + 7
row = [1] * n
for _ in range(1, m):
    for j in range(1, n):
        row[j] = (row[j] + row[j - 1]) % MOD
print(row[-1])""",
["1 1\n", "2 2\n", "3 7\n", "1000 1000\n"])

with open(sys.argv[1], "w") as f:
    for p in problems:
        f.write(json.dumps(p) + "\n")
print(len(problems), [len((json.loads(p["tests"]) if isinstance(p["tests"], str) else p["tests"])["inputs"]) for p in problems])
